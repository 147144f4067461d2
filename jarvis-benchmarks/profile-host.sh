#!/usr/bin/env bash
# A JFR profile of the reference host in memory under load (docs/benchmarks.md, "JFR profiles before and
# after (issue 25 item 6)"): one `jarvis-cli serve --store memory` (request log off, as in
# cpu-per-append.sh) recording JFR's `profile` settings with Java method sampling every 2 ms instead of
# its 10 ms, driven by `jarvis-cli load` (appendJarvisEvent) in another process; the recording starts 5 s
# into the measured phase. Then jfr-shares.py summarises it.
#
#   jarvis-benchmarks/profile-host.sh OUT_DIR [CONNECTIONS] [WARMUP_S] [RECORD_S]
#
# Needs the CLI jar (./mvnw -B -q package -DskipTests -pl jarvis-cli -am); CLI=path picks another.
set -euo pipefail
if [[ $# -lt 1 ]]; then
  echo "usage: $0 OUT_DIR [CONNECTIONS] [WARMUP_S] [RECORD_S]" >&2
  exit 2
fi
out=$1
connections=${2:-16}
warmup=${3:-30}
record=${4:-40}
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${CLI:-$root/jarvis-cli/target/jarvis-cli.jar}
port=${PORT:-18190}
token=profile-token
mkdir -p "$out"
java_home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
sed 's|<setting name="period" control="method-sampling-java-interval">[^<]*</setting>|<setting name="period" control="method-sampling-java-interval">2 ms</setting>|' \
  "$java_home/lib/jfr/profile.jfc" > "$out/profile-2ms.jfc"
cat > "$out/logging.properties" <<'PROPS'
handlers=java.util.logging.ConsoleHandler
.level=INFO
dev.jarvis.host.reference.requests.level=WARNING
PROPS
java "-XX:StartFlightRecording=delay=$((warmup + 5))s,duration=${record}s,settings=$out/profile-2ms.jfc,filename=$out/host.jfr" \
  -Djava.util.logging.config.file="$out/logging.properties" -jar "$cli" serve --port "$port" \
  --token "$token" --store memory > "$out/serve.log" 2>&1 &
host=$!
trap 'kill $host 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/health/ready" > /dev/null 2>&1 && break
  sleep 0.2
done
java -jar "$cli" load --base-url "http://127.0.0.1:$port" --token "$token" \
  --connections "$connections" --warmup "$warmup" --duration $((record + 10)) \
  --json "$out/load.json" > "$out/load.log" 2>&1
sleep 2
kill $host
wait $host || true
grep "accepted/s" "$out/load.log"
python3 "$(dirname "$0")/jfr-shares.py" "$out/host.jfr" 10
