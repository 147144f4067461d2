#!/usr/bin/env bash
# The host load run of docs/benchmarks.md ("Host load run"), in one go: each target in its own JVM,
# driven by `jarvis-cli load` in another, at 16 and 64 connections, then one table.
#
#   jarvis-benchmarks/host-load.sh WARMUP_S DURATION_S [JDBC_URL]
#
# Targets: the reference host in memory on each runtime (undertow, jersey); with JDBC_URL
# (jdbc:postgresql://HOST:PORT/DB?user=U, password from JARVIS_STORE_PASSWORD) the same on
# PostgreSQL; WireMock standalone answering the same requests with canned answers
# (dev.jarvis.benchmarks.CannedWireMock). Every target is started fresh for each connection count.
# The hosts' request log (one INFO line per request on stderr) is turned off, as a production host
# would ship it elsewhere; set REQUEST_LOG=1 to keep it. JVM flags for the targets: TARGET_JAVA_OPTS. The
# load runs `--light` (LOAD_ARGS= for the checked generator, LOAD_ARGS to change it).
# Builds the two jars first unless they exist (SKIP_BUILD=1 to never build).
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 WARMUP_S DURATION_S [JDBC_URL]" >&2
  exit 2
fi
warmup=$1
duration=$2
jdbc=${3:-}
root=$(cd "$(dirname "$0")/.." && pwd)
cli=$root/jarvis-cli/target/jarvis-cli.jar
bench=$root/jarvis-benchmarks/target/jarvis-benchmarks.jar
token=host-load-token
out=$(mktemp -d "${TMPDIR:-/tmp}/host-load.XXXXXX")

if [[ ${SKIP_BUILD:-0} != 1 && ( ! -f $cli || ! -f $bench ) ]]; then
  (cd "$root" && ./mvnw -B -q package -DskipTests -pl jarvis-cli,jarvis-benchmarks -am)
fi

cat > "$out/logging.properties" <<'PROPS'
handlers=java.util.logging.ConsoleHandler
.level=INFO
dev.jarvis.host.reference.requests.level=WARNING
PROPS
log_opts=()
if [[ ${REQUEST_LOG:-0} != 1 ]]; then
  log_opts=(-Djava.util.logging.config.file="$out/logging.properties")
fi
read -r -a target_opts <<< "${TARGET_JAVA_OPTS:-}"
read -r -a load_args <<< "${LOAD_ARGS---light}"

# shellcheck source=targets.sh
source "$root/jarvis-benchmarks/targets.sh"

run_one() { # label, connections, target (undertow | jersey | wiremock), store
  local label=$1 connections=$2 target=$3 store=${4:-}
  local port name
  port=$(free_port)
  name=$(echo "$label-$connections" | tr ' ,()' '____')
  if [[ $target == wiremock ]]; then
    start_target "$name" java "${target_opts[@]}" -cp "$bench" \
      dev.jarvis.benchmarks.CannedWireMock "$port"
  else
    start_target "$name" java "${target_opts[@]}" "${log_opts[@]}" -jar "$cli" serve \
      --port "$port" --token "$token" --runtime "$target" --store "$store"
  fi
  echo "== $label, $connections connections (port $port)"
  # Exit 1 is expected against WireMock: its canned event is not the one sent.
  java -jar "$cli" load --base-url "http://127.0.0.1:$port" --token "$token" \
    --connections "$connections" --warmup "$warmup" --duration "$duration" "${load_args[@]}" \
    --json "$out/$name.json" | tail -n 6 || true
  stop_target
  echo "$label|$connections|$out/$name.json" >> "$out/runs"
}

echo "host load run: warm-up ${warmup}s, measured ${duration}s, load ${LOAD_ARGS---light}; results in $out"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(java -version 2>&1 | head -1)"
for connections in 16 64; do
  for runtime in undertow jersey; do
    run_one "reference host, $runtime, memory" "$connections" "$runtime" memory
    if [[ -n $jdbc ]]; then
      run_one "reference host, $runtime, PostgreSQL" "$connections" "$runtime" "$jdbc"
    fi
  done
  run_one "WireMock canned" "$connections" wiremock
done

echo
python3 - "$out/runs" <<'PY'
import json, sys
rows = [line.rstrip("\n").split("|") for line in open(sys.argv[1])]
print(f"| {'target':40} | conns | {'req/s':>8} | {'p50 ms':>7} | {'p99 ms':>7} | {'p99.9 ms':>8} | errors | off-spec |")
print(f"|{'-'*42}|-------|{'-'*10}|{'-'*9}|{'-'*9}|{'-'*10}|--------|----------|")
for label, conns, path in rows:
    try:
        r = json.load(open(path))
    except OSError:
        print(f"| {label:40} | {conns:>5} | no result |")
        continue
    lat = r["latency_micros"]
    errors = sum(r["refusals"].values()) + sum(r["transport_errors"].values())
    print(f"| {label:40} | {conns:>5} | {r['accepted_per_second']:8.0f} | {lat['p50']/1000:7.2f} | "
          f"{lat['p99']/1000:7.2f} | {lat['p99.9']/1000:8.2f} | {errors:6d} | {r['off_spec_answers']:8d} |")
PY
echo "(off-spec against WireMock is expected: every append gets the same canned event)"
