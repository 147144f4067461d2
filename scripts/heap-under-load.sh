#!/usr/bin/env bash
# Heap after GC over time, of a reference host (`jarvis-cli serve`) under `jarvis-cli load`.
#
# Every INTERVAL seconds it forces a full GC in the host (jcmd GC.run) and records the heap in use
# after it (jcmd GC.heap_info): what the host keeps, not what it has yet to collect. A host whose
# per-request state is purged shows a flat line after warm-up; a leak shows a slope.
#
#   scripts/heap-under-load.sh [--duration S] [--interval S] [--connections N] [--store STORE]
#                              [--operation OP] [--xmx SIZE] [--out DIR]
#
# Defaults: 1800 s, every 30 s, 16 connections, the embedded SQLite store in a fresh data dir,
# appendJarvisEvent, -Xmx512m, out ./heap-under-load. --store takes what `serve --store` takes
# (memory, jdbc:postgresql://...); the in-memory store keeps every event by design, so its heap
# grows with the data: use it to see that slope, not per-request state.
# Needs the built CLI (./mvnw -B -q package -DskipTests) and jcmd on the PATH (any JDK 17).
# Writes DIR/heap.csv (seconds, heap used after GC in KiB, heap committed in KiB), DIR/load.json
# (the load's figures), DIR/serve.log and DIR/load.log, and prints a summary.
set -euo pipefail

duration=1800 interval=30 connections=16 store="" operation=appendJarvisEvent xmx=512m
out=heap-under-load
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration=$2; shift 2 ;;
    --interval) interval=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --store) store=$2; shift 2 ;;
    --operation) operation=$2; shift 2 ;;
    --xmx) xmx=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
jar=$root/jarvis-cli/target/jarvis-cli.jar
[ -f "$jar" ] || { echo "build the CLI first: ./mvnw -B -q package -DskipTests" >&2; exit 2; }
command -v jcmd >/dev/null || { echo "jcmd is not on the PATH" >&2; exit 2; }
mkdir -p "$out"
token=heap-run-$RANDOM$RANDOM
data=$(mktemp -d)

store_args=(--data-dir "$data")
[ -n "$store" ] && store_args=(--store "$store")
java -Xmx"$xmx" -XX:+UseG1GC -jar "$jar" serve --port 0 --token "$token" "${store_args[@]}" \
  >"$out/serve.log" 2>&1 &
host=$!
load=""
cleanup() {
  [ -n "$load" ] && kill "$load" 2>/dev/null || true
  kill "$host" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT

url=""
for _ in $(seq 1 600); do
  url=$(grep -o 'listening on http://[0-9.:]*/' "$out/serve.log" | head -1 | sed 's/listening on //') || true
  [ -n "$url" ] && break
  kill -0 "$host" 2>/dev/null || { cat "$out/serve.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "the host did not start" >&2; exit 1; }
echo "host $url (pid $host), store ${store:-embedded SQLite}, load $connections x $operation for $duration s"

java -jar "$jar" load --base-url "$url" --token "$token" --connections "$connections" \
  --warmup 0 --duration "$duration" --operation "$operation" --json "$out/load.json" \
  >"$out/load.log" 2>&1 &
load=$!

heap() { # prints "used committed" in KiB after a full GC
  jcmd "$host" GC.run >/dev/null
  jcmd "$host" GC.heap_info | sed -n 's/.*total \([0-9]*\)K, used \([0-9]*\)K.*/\2 \1/p' | head -1
}

echo "seconds,heap_used_after_gc_kib,heap_committed_kib" >"$out/heap.csv"
start=$(date +%s)
while kill -0 "$load" 2>/dev/null; do
  read -r used committed < <(heap)
  now=$(( $(date +%s) - start ))
  echo "$now,$used,$committed" | tee -a "$out/heap.csv"
  sleep "$interval"
done
wait "$load" && status=0 || status=$?
load=""
read -r used committed < <(heap)
echo "$(( $(date +%s) - start )),$used,$committed" | tee -a "$out/heap.csv"

# After warm-up (the first third of the run): the lowest and highest heap after GC, and the last.
awk -F, -v warm=$(( duration / 3 )) 'NR > 1 && $1 >= warm {
    if (min == "" || $2 < min) min = $2; if ($2 > max) max = $2; last = $2; n++ }
  END { if (n) printf "after %d s of warm-up, %d samples: heap after GC min %d KiB, max %d KiB, last %d KiB\n", warm, n, min, max, last }' \
  "$out/heap.csv"
echo "load exit $status; figures in $out/load.json"
exit "$status"
