#!/usr/bin/env bash
# Where the CPU goes per append (docs/benchmarks.md, "CPU per append, by process"): one `serve` on
# STORE driven by `jarvis-cli load` in another process; during the measured phase, the CPU time each
# side used (from /proc, with PostgreSQL's backends counted as the database's), divided by the appends
# accepted in that window.
#
#   jarvis-benchmarks/cpu-per-append.sh STORE [CONNECTIONS] [WARMUP_S] [WINDOW_S]
#
# STORE: memory | jdbc:postgresql://HOST:PORT/DB?user=U (a database the run may fill; password from
# JARVIS_STORE_PASSWORD) | wiremock (no host: dev.jarvis.benchmarks.CannedWireMock answering canned,
# for the generator's own cost per request; its "host" line is WireMock). The host's request log is
# off, as in host-load.sh. The load runs with LOAD_ARGS (default --light; LOAD_ARGS= for the checked
# generator). Needs the CLI jar (./mvnw -B -q package -DskipTests -pl jarvis-cli -am), and for
# wiremock the benchmarks jar (-pl jarvis-cli,jarvis-benchmarks).
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 STORE [CONNECTIONS] [WARMUP_S] [WINDOW_S]" >&2
  exit 2
fi
store=$1
connections=${2:-16}
warmup=${3:-40}
window=${4:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
cli=$root/jarvis-cli/target/jarvis-cli.jar
bench=$root/jarvis-benchmarks/target/jarvis-benchmarks.jar
read -r -a load_args <<< "${LOAD_ARGS---light}"
out=$(mktemp -d "${TMPDIR:-/tmp}/cpu-per-append.XXXXXX")
port=${PORT:-18090}
token=cpu-per-append-token
# The database name of a PostgreSQL STORE (jdbc:postgresql://HOST:PORT/DB?...), else empty.
database=$(sed -n 's|^jdbc:postgresql://[^/]*/\([^?]*\).*|\1|p' <<< "$store")

cat > "$out/logging.properties" <<'PROPS'
handlers=java.util.logging.ConsoleHandler
.level=INFO
dev.jarvis.host.reference.requests.level=WARNING
PROPS

# CPU seconds so far of each side, read from /proc in one pass (a pass must be quick: the window is
# the time between two): the host (its JVM), the load generator (its JVM), the database (every
# postgres process; "database.own" again, only the backends connected to STORE's database, which
# other work on a shared cluster does not inflate), everything else.
cpu_by_side() {
  python3 - "$port" "$database" <<'PY'
import os, re, sys, time
port, database = sys.argv[1], sys.argv[2]
hz = os.sysconf("SC_CLK_TCK")
cpu = {}
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
        stat = open(f"/proc/{pid}/stat").read()
    except OSError:
        continue
    side = "other"
    if f" serve --port {port} " in cmd or cmd.endswith(f"CannedWireMock {port} "):
        side = "host"
    elif f" load --base-url http://127.0.0.1:{port} " in cmd:
        side = "loadgen"
    elif cmd.startswith("postgres:") or "/bin/postgres" in cmd:
        side = "database"
    fields = stat.rsplit(")", 1)[1].split()
    used = (int(fields[11]) + int(fields[12])) / hz
    cpu[side] = cpu.get(side, 0) + used
    if side == "database":
        cpu.setdefault("database.own", 0)
        # A backend's title: "postgres: [CLUSTER: ]USER DATABASE HOST(PORT) STATE".
        title = re.match(r"postgres: (?:\S+: )?\S+ (\S+) ", cmd)
        if database and title and title.group(1) == database:
            cpu["database.own"] += used
for side in sorted(cpu):
    print(side, cpu[side])
print("~wall", time.monotonic())
PY
}

if [[ $store == wiremock ]]; then
  java -cp "$bench" dev.jarvis.benchmarks.CannedWireMock "$port" > "$out/serve.log" 2>&1 &
else
  java -Djava.util.logging.config.file="$out/logging.properties" -jar "$cli" serve --port "$port" \
    --token "$token" --store "$store" > "$out/serve.log" 2>&1 &
fi
host=$!
trap 'kill $host 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  grep -q "listening on" "$out/serve.log" 2>/dev/null && break
  sleep 0.2
done

# The load's measured phase runs window + 10 s; the window starts 5 s into it.
java -jar "$cli" load --base-url "http://127.0.0.1:$port" --token "$token" \
  --connections "$connections" --warmup "$warmup" --duration $((window + 10)) "${load_args[@]}" \
  --json "$out/load.json" > "$out/load.log" 2>&1 &
load=$!
sleep $((warmup + 5))
cpu_by_side > "$out/cpu.before"
sleep "$window"
cpu_by_side > "$out/cpu.after"
wait $load || true

# Appends in the window: the load's own throughput times the window (its rate is steady by then).
rate=$(python3 -c "import json; print(json.load(open('$out/load.json'))['accepted_per_second'])")
echo "store ${store%%\?*}, $connections connections, ${window} s window, $(nproc) cores," \
  "load ${LOAD_ARGS---light}, load average $(cut -d' ' -f1-3 /proc/loadavg)"
tail -n 6 "$out/load.log" | head -n 2
# Every side's CPU over the window's real length (two passes apart), and per append accepted in it.
LC_ALL=C join "$out/cpu.before" "$out/cpu.after" | awk -v rate="$rate" '
  $1 == "~wall" { wall = $3 - $2; next }
  { used[$1] = $3 - $2 }
  END {
    for (s in used)
      printf "%-9s %6.1f cpu-s  %4.0f %% of one core  %6.3f ms per append\n",
        s, used[s], used[s] * 100 / wall, used[s] * 1000 / (rate * wall)
  }' | sort
