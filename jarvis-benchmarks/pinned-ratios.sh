#!/usr/bin/env bash
# The pinned ratios of issue 25 ("How it is measured"; docs/benchmarks.md, "Pinned ratios (issue 25)"), in
# one run: the server side on one core, the load on the other, both sides of each ratio on the same cores.
#
#   WARMUP=45 DURATION=30 jarvis-benchmarks/pinned-ratios.sh JDBC_URL
#
# 1. reference host in memory vs WireMock answering a canned 201 (dev.jarvis.benchmarks.CannedWireMock):
#    `jarvis-cli load --light`, appendJarvisEvent, CONNECTIONS connections; target `taskset -c SERVER_CPU`,
#    load `taskset -c LOAD_CPU`.
# 2. reference host on PostgreSQL (JDBC_URL: jdbc:postgresql://HOST:PORT/DB?user=U, a database the run may
#    fill; password from JARVIS_STORE_PASSWORD / PGPASSWORD) vs `pgbench -c CONNECTIONS -j 1` running the
#    append-shaped transaction of src/main/pgbench/append.sql. The cluster's postmaster and its current
#    children are pinned to SERVER_CPU (`taskset -acp`), so that the backends forked later inherit it; they
#    are put back on every core when the script ends, also on failure or Ctrl-C.
# 3. optional (JMH=1): the client-vs-bare figure, ClientOverheadBenchmark's jarvisClient and bareHttpClient
#    on LOAD_CPU against CannedWireMock in its own JVM on SERVER_CPU (-p target=; JMH_ARGS to change its
#    iterations).
#
# Without JDBC_URL only ratio 1 (and 3) is measured. The hosts' request log is off for every target.
# Environment: WARMUP (s, default 45), DURATION (s, default 30), CONNECTIONS (16), SERVER_CPU (0),
# LOAD_CPU (1), RESTORE_CPUS (0-1, what the cluster gets back), SKIP_BUILD=1, TARGET_JAVA_OPTS, LOAD_ARGS
# (the load's mode, default --light; LOAD_ARGS= for the checked generator, which cannot load core 0).
# Prints the details first and each ratio last, with the p99s, the load average and the commit.
set -euo pipefail

jdbc=${1:-}
warmup=${WARMUP:-45}
duration=${DURATION:-30}
connections=${CONNECTIONS:-16}
server_cpu=${SERVER_CPU:-0}
load_cpu=${LOAD_CPU:-1}
restore_cpus=${RESTORE_CPUS:-0-$(($(nproc) - 1))}
root=$(cd "$(dirname "$0")/.." && pwd)
cli=$root/jarvis-cli/target/jarvis-cli.jar
bench=$root/jarvis-benchmarks/target/jarvis-benchmarks.jar
token=pinned-ratios-token
out=$(mktemp -d "${TMPDIR:-/tmp}/pinned-ratios.XXXXXX")
read -r -a target_opts <<< "${TARGET_JAVA_OPTS:-}"
read -r -a load_args <<< "${LOAD_ARGS---light}"

if [[ ${SKIP_BUILD:-0} != 1 && ( ! -f $cli || ! -f $bench ) ]]; then
  (cd "$root" && ./mvnw -B -q package -DskipTests -pl jarvis-cli,jarvis-benchmarks -am)
fi

cat > "$out/logging.properties" <<'PROPS'
handlers=java.util.logging.ConsoleHandler
.level=INFO
dev.jarvis.host.reference.requests.level=WARNING
PROPS

TARGET=""
PINNED_PIDS=()

# Puts the cluster back on every core and stops a target still running: on success, failure or signal.
cleanup() {
  local pid
  for pid in "${PINNED_PIDS[@]}"; do
    restore_tree "$pid"
  done
  if [[ -n $TARGET ]]; then
    kill "$TARGET" 2>/dev/null || true
    wait "$TARGET" 2>/dev/null || true
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Sets the affinity of a process, all its threads, and of its children (PostgreSQL's backends).
pin_tree() { # pid cpus
  local child
  taskset -acp "$2" "$1" > /dev/null
  for child in $(pgrep -P "$1" || true); do
    taskset -acp "$2" "$child" > /dev/null 2>&1 || true # a backend may just have ended
  done
}
restore_tree() { pin_tree "$1" "$restore_cpus" || echo "could not restore the affinity of $1" >&2; }

# shellcheck source=targets.sh
source "$root/jarvis-benchmarks/targets.sh"

# CPU ticks (user + system) a process has used so far; 0 once it is gone (or for no pid).
cpu_ticks() {
  awk '{ print $14 + $15 }' "/proc/${1:-none}/stat" 2>/dev/null || echo 0
}

# The database's CPU ticks so far: the postmaster and its children (the backends), once the
# PostgreSQL run has found the postmaster; 0 before. A backend that ended meanwhile is not counted.
POSTMASTER=""
database_ticks() {
  local sum=0 pid
  if [[ -n $POSTMASTER ]]; then
    for pid in "$POSTMASTER" $(pgrep -P "$POSTMASTER" || true); do
      sum=$((sum + $(cpu_ticks "$pid")))
    done
  fi
  echo "$sum"
}

# The server core's busy and total ticks so far (/proc/stat; busy is all but idle and iowait).
core_ticks() {
  awk -v c="cpu$server_cpu" '$1 == c { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat
}

# The CPU over a load's measured phase (its first and last 2 s left out), in $out/NAME.cpu: the
# target's, the generator's, the database's and the server core's busy and total ticks. Run
# while the load runs; its warm-up is WARMUP_S (0 for a load that was warmed apart).
sample_window() { # name, generator pid, warm-up seconds
  local window target0 generator0 database0 core0 target1 generator1 database1 core1 busy0 total0 busy1 total1
  window=$((duration > 6 ? duration - 4 : 1))
  sleep $(($3 + 2))
  target0=$(cpu_ticks "$TARGET")
  generator0=$(cpu_ticks "$2")
  database0=$(database_ticks)
  core0=$(core_ticks)
  sleep "$window"
  target1=$(cpu_ticks "$TARGET")
  generator1=$(cpu_ticks "$2")
  database1=$(database_ticks)
  core1=$(core_ticks)
  read -r busy0 total0 <<< "$core0"
  read -r busy1 total1 <<< "$core1"
  echo "$((target1 - target0)) $((generator1 - generator0)) $window $(getconf CLK_TCK)" \
    "$((database1 - database0)) $((busy1 - busy0)) $((total1 - total0))" > "$out/$1.cpu"
}

# `jarvis-cli load` on the load core against a target; its JSON result in $out/NAME.json, and in
# $out/NAME.cpu the CPU of each side over the measured phase: whether the target or the generator
# was the limit, and what the server side spent per answer.
load() { # name, port
  # Exit 1 is expected against WireMock: its canned event is not the one sent.
  taskset -c "$load_cpu" java -jar "$cli" load --base-url "http://127.0.0.1:$2" --token "$token" \
    --connections "$connections" --warmup "$warmup" --duration "$duration" "${load_args[@]}" \
    --json "$out/$1.json" > "$out/$1.load" 2>&1 &
  local generator=$!
  sample_window "$1" "$generator" "$warmup"
  wait "$generator" || true
  if [[ ! -s $out/$1.json ]]; then
    echo "the load against $1 gave no result:" >&2
    tail -n 20 "$out/$1.load" >&2
    exit 1
  fi
}

run_host() { # name, store
  local port
  port=$(free_port)
  start_target "$1" taskset -c "$server_cpu" java "${target_opts[@]}" -Djava.util.logging.config.file="$out/logging.properties" \
    -jar "$cli" serve --port "$port" --token "$token" --store "$2"
  load "$1" "$port"
  stop_target
}

run_wiremock() {
  local port
  port=$(free_port)
  start_target wiremock taskset -c "$server_cpu" java "${target_opts[@]}" -cp "$bench" dev.jarvis.benchmarks.CannedWireMock "$port"
  load wiremock "$port"
  stop_target
}

# pgbench with the append-shaped transaction, on the load core, the cluster pinned to the server core.
run_pgbench() {
  local params host port db user datadir postmaster
  params=$(python3 - "$jdbc" <<'PY'
import sys, urllib.parse
url = urllib.parse.urlparse(sys.argv[1][len("jdbc:"):])
q = urllib.parse.parse_qs(url.query)
print(url.hostname or "127.0.0.1", url.port or 5432, url.path.lstrip("/"), q.get("user", ["postgres"])[0])
PY
)
  read -r host port db user <<< "$params"
  export PGPASSWORD=${PGPASSWORD:-${JARVIS_STORE_PASSWORD:-}}
  datadir=$(pg_lsclusters --no-header | awk -v p="$port" '$3 == p && $4 ~ /online/ { print $6; exit }')
  if [[ -z $datadir || ! -r $datadir/postmaster.pid ]]; then
    echo "no online cluster on port $port in pg_lsclusters (run as a user who can read its postmaster.pid)" >&2
    exit 1
  fi
  postmaster=$(head -n 1 "$datadir/postmaster.pid")
  POSTMASTER=$postmaster
  PINNED_PIDS+=("$postmaster")
  pin_tree "$postmaster" "$server_cpu"
  echo "postmaster $postmaster and its children pinned to core $server_cpu"

  psql -q -h "$host" -p "$port" -U "$user" -d "$db" -f "$root/jarvis-benchmarks/src/main/pgbench/setup.sql" \
    > "$out/pgbench-setup.log" 2>&1 || {
    echo "pgbench's setup failed:" >&2
    cat "$out/pgbench-setup.log" >&2
    exit 1
  }
  local bench_args=(-n -h "$host" -p "$port" -U "$user" -c "$connections" -j 1
    -f "$root/jarvis-benchmarks/src/main/pgbench/append.sql")
  taskset -c "$load_cpu" pgbench "${bench_args[@]}" -T "$warmup" "$db" > "$out/pgbench-warmup.log" 2>&1
  taskset -c "$load_cpu" pgbench "${bench_args[@]}" -T "$duration" -l --log-prefix="$out/pgbench" \
    "$db" > "$out/pgbench.log" 2>&1 &
  local pgbench_pid=$!
  sample_window pgbench "$pgbench_pid" 0
  wait "$pgbench_pid"
  python3 - "$out" <<'PY' > "$out/pgbench.json"
import glob, json, re, sys
out = sys.argv[1]
text = open(f"{out}/pgbench.log").read()
tps = float(re.search(r"tps = ([0-9.]+)", text).group(1))
# Per-transaction log: client, transaction, latency in microseconds, ...
lat = sorted(int(line.split()[2]) for f in glob.glob(f"{out}/pgbench.*") if re.search(r"pgbench\.\d+", f)
             for line in open(f))
p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else 0
print(json.dumps({"accepted_per_second": tps, "latency_micros": {"p99": p99}, "transactions": len(lat)}))
PY
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "pinned ratios: warm-up ${warmup}s, measured ${duration}s, $connections connections, load ${LOAD_ARGS---light};" \
  "server side on core $server_cpu, load on core $load_cpu; results in $out"
echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1); load average $load_before; commit $commit"

run_host host-memory memory
run_wiremock
if [[ -n $jdbc ]]; then
  run_pgbench
  run_host host-postgresql "$jdbc"
  for pid in "${PINNED_PIDS[@]}"; do
    restore_tree "$pid"
  done
  PINNED_PIDS=()
  echo "cluster back on cores $restore_cpus"
fi
if [[ ${JMH:-0} == 1 ]]; then
  read -r -a jmh_args <<< "${JMH_ARGS:--f 1 -wi 5 -w 3 -i 5 -r 3}"
  # WireMock in its own JVM on the server core, so the JMH JVM on the load core holds only the
  # client under test and the JDK client the bare POST uses.
  port=$(free_port)
  start_target jmh-wiremock taskset -c "$server_cpu" java "${target_opts[@]}" -cp "$bench" dev.jarvis.benchmarks.CannedWireMock "$port"
  taskset -c "$load_cpu" java -jar "$bench" "${jmh_args[@]}" -p target="http://127.0.0.1:$port" \
    -rf json -rff "$out/jmh.json" 'ClientOverheadBenchmark.(bareHttpClient|jarvisClient)$' > "$out/jmh.log" 2>&1
  stop_target
fi

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
echo
python3 - "$out" "$load_before" "$load_after" "$commit" <<'PY'
import json, os, sys
out, before, after, commit = sys.argv[1:5]
def result(name):
    path = f"{out}/{name}.json"
    return json.load(open(path)) if os.path.exists(path) else None
def cpu(name):
    # Over the measured window: the target's and the generator's share of a core, the target's and
    # the database's CPU µs per answer, the server core's busy share.
    path = f"{out}/{name}.cpu"
    if not os.path.exists(path):
        return None
    target, generator, window, hz, database, busy, total = (float(v) for v in open(path).read().split())
    rate = result(name)["accepted_per_second"]
    per = lambda ticks: ticks / hz / window / rate * 1e6
    return {"target": target / hz / window, "generator": generator / hz / window,
            "target_us": per(target), "database_us": per(database), "core": busy / max(1, total)}
def line(label, r, unit, name=None):
    lat = r["latency_micros"]
    text = f"  {label:34} {r['accepted_per_second']:9.0f} {unit}  p99 {lat['p99'] / 1000:7.2f} ms"
    c = cpu(name) if name else None
    if c:
        text += f"  server core busy {c['core']:4.0%}"
        if c["target"] > 0:
            text += f", target process {c['target']:4.0%} of a core, {c['target_us']:5.0f} us CPU per answer"
        if c["database_us"] > 0:
            text += f", database {c['database_us']:5.0f} us"
        text += f"; generator {c['generator']:4.0%} of a core"
    return text
ratios = []
host, wm = result("host-memory"), result("wiremock")
print(line("reference host, in memory", host, "appends/s", "host-memory"))
print(line("WireMock canned", wm, "answers/s", "wiremock"))
ratios.append(("host in memory / WireMock canned (target >= 1.0, p99 <= 1.5x)",
               host["accepted_per_second"] / wm["accepted_per_second"],
               host["latency_micros"]["p99"] / max(1, wm["latency_micros"]["p99"])))
host_cpu, wm_cpu = cpu("host-memory"), cpu("wiremock")
if host_cpu and wm_cpu:
    # A generator at a full core cannot load its target: the throughput ratio is then the
    # generator's, and the servers compare by the CPU each spends per answer.
    if max(host_cpu["generator"], wm_cpu["generator"]) > 0.9:
        print("  the generator used a full core: the throughput ratio is the generator's; compare by CPU")
    ratios.append(("host in memory / WireMock canned, by CPU per answer (WireMock's / the host's)",
                   wm_cpu["target_us"] / host_cpu["target_us"], None))
pg, pgb = result("host-postgresql"), result("pgbench")
if pg and pgb:
    print(line("reference host, PostgreSQL", pg, "appends/s", "host-postgresql"))
    print(line("pgbench, append.sql", pgb, "tps      ", "pgbench"))
    ratios.append(("host on PostgreSQL / pgbench (target >= 0.5)",
                   pg["accepted_per_second"] / pgb["accepted_per_second"],
                   pg["latency_micros"]["p99"] / max(1, pgb["latency_micros"]["p99"])))
    pg_cpu, pgb_cpu = cpu("host-postgresql"), cpu("pgbench")
    if pg_cpu and pgb_cpu and pgb_cpu["database_us"] > 0:
        # The server side's CPU per append (host JVM + database) against pgbench's (database).
        ratios.append(("server CPU per pgbench transaction / per host append on PostgreSQL",
                       pgb_cpu["database_us"] / (pg_cpu["target_us"] + pg_cpu["database_us"]), None))
jmh = result("jmh")
if jmh:
    scores = {b["benchmark"].rsplit(".", 1)[1]: b["primaryMetric"]["scorePercentiles"]["50.0"] for b in jmh}
    unit = jmh[0]["primaryMetric"]["scoreUnit"] if jmh else ""
    if "jarvisClient" in scores and "bareHttpClient" in scores:
        print(f"  JMH median: jarvisClient {scores['jarvisClient']:.1f} {unit},"
              f" bareHttpClient {scores['bareHttpClient']:.1f} {unit}")
        ratios.append(("JarvisClient / bare HttpClient, JMH median (target <= 1.10)",
                       scores["jarvisClient"] / scores["bareHttpClient"], None))
print(f"  load average before {before}, after {after}; commit {commit}")
for label, ratio, p99 in ratios:
    print(f"RATIO {label}: {ratio:.2f}" + (f" (p99 ratio {p99:.2f})" if p99 is not None else ""))
PY
