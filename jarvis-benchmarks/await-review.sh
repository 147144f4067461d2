#!/usr/bin/env bash
# Issue #33's "Done when", measured: two `jarvis-cli serve` instances on one PostgreSQL database;
# an agent process (dev.jarvis.benchmarks.AwaitReviewRun) blocked in awaitResolution on the first;
# the human approves from another process, `jarvis-cli review`, through the second. Prints how long
# after the review the agent resumed, and how long after expires_at an unanswered await ends expired.
#
#   jarvis-benchmarks/await-review.sh jdbc:postgresql://HOST:PORT/DB?user=U [ROUNDS]
#
# Needs the CLI and benchmarks jars: ./mvnw -B -q package -DskipTests -pl jarvis-cli,jarvis-benchmarks -am
set -euo pipefail
store=$1
rounds=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
cli=$root/jarvis-cli/target/jarvis-cli.jar
bench=$root/jarvis-benchmarks/target/jarvis-benchmarks.jar
token=await-review-token
out=$(mktemp -d "${TMPDIR:-/tmp}/await-review.XXXXXX")
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
for port in 18291 18292; do
  java -jar "$cli" serve --port "$port" --token "$token" --store "$store" > "$out/serve-$port.log" 2>&1 &
  pids+=($!)
done
for port in 18291 18292; do
  for _ in $(seq 1 150); do
    curl -fsS "http://127.0.0.1:$port/health/ready" > /dev/null 2>&1 && break
    sleep 0.2
  done
done
echo "# await-review $(date -u +%FT%TZ) commit $(git -C "$root" rev-parse --short HEAD)"
java -cp "$bench" dev.jarvis.benchmarks.AwaitReviewRun \
  http://127.0.0.1:18291/ http://127.0.0.1:18292/ "$token" "$cli" "$rounds"
