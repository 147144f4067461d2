#!/usr/bin/env bash
# The live loop's costs (docs/benchmarks.md, "Live event streams"): `jarvis-cli serve` pinned to
# core 0, dev.jarvis.benchmarks.LiveLoopRun (the appending client and the SSE subscribers) pinned
# to core 1.
#
#   jarvis-benchmarks/live-loop.sh STORE [SUBSCRIBERS] [WINDOW_S]
#
# STORE: memory (one instance) | jdbc:postgresql://HOST:PORT/DB?user=U (two instances on that
# database: appends through the first, the subscriber on the second; latency only, then the same
# on one instance with the subscribers). HEARTBEAT=DURATION is passed to serve as
# --stream-heartbeat; MODE=idle measures only the idle cost of the subscribers, to nanoseconds
# (memory store). Needs the CLI and benchmarks jars:
#   ./mvnw -B -q package -DskipTests -pl jarvis-cli,jarvis-benchmarks -am
set -euo pipefail
store=${1:-memory}
subscribers=${2:-1000}
window=${3:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
cli=$root/jarvis-cli/target/jarvis-cli.jar
bench=$root/jarvis-benchmarks/target/jarvis-benchmarks.jar
token=live-loop-token
out=$(mktemp -d "${TMPDIR:-/tmp}/live-loop.XXXXXX")
cat > "$out/logging.properties" <<'PROPS'
handlers=java.util.logging.ConsoleHandler
.level=INFO
dev.jarvis.host.reference.requests.level=WARNING
PROPS
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

serve() { # port, store
  taskset -c 0 java -Djava.util.logging.config.file="$out/logging.properties" -jar "$cli" \
    serve --port "$1" --token "$token" --store "$2" ${HEARTBEAT:+--stream-heartbeat "$HEARTBEAT"} \
    > "$out/serve-$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$1/health/ready" > /dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "serve on $1 did not start:" >&2
  cat "$out/serve-$1.log" >&2
  exit 1
}

run() { # append port, subscribe port, subscriber count
  local pid
  pid=$(pgrep -f "serve --port $2 " | head -1)
  taskset -c 1 java -cp "$bench" dev.jarvis.benchmarks.LiveLoopRun \
    "http://127.0.0.1:$1/" "http://127.0.0.1:$2/" "$token" "$pid" "$3" "$window" ${MODE:+"$MODE"}
}

echo "# live-loop $(date -u +%FT%TZ) commit $(git -C "$root" rev-parse --short HEAD) store=${store%%\?*} heartbeat=${HEARTBEAT:-15s} mode=${MODE:-all}"
if [[ $store == memory ]]; then
  serve 18191 memory
  run 18191 18191 "$subscribers"
else
  serve 18191 "$store"
  serve 18192 "$store"
  echo "## two instances: appends on 18191, the subscriber on 18192"
  run 18191 18192 0
  echo "## one instance, with the subscribers"
  run 18191 18191 "$subscribers"
fi
