#!/usr/bin/env bash
# The scale curves of the reference host on PostgreSQL (docs/benchmarks.md, "Scale curves on
# PostgreSQL"): how an append's rate, latency and CPU move as the work grows, each point one line.
#
#   jarvis-benchmarks/scale-curves.sh
#
# 1. connections: `jarvis-cli load --light --connections N` for N in CONNECTIONS_LIST
#    (default "1 2 4 8 16 32 64"), one `serve` for all the points, a fresh database.
# 2. one long chain: appends to one WorkSession (ChainAppendRun, CHAIN_CONNECTIONS threads on it,
#    default 1) when it holds ~0 events, then CHAIN_LENGTHS events (default "100000 1000000"). The
#    events are seeded by SQL, not through the host (a million appends through the host take
#    too long): copies of the WorkSession's last stored event, each with its own id, sequence,
#    previous_hash and event_hash (md5-made 64-hex stand-ins, not real hashes: an append reads the
#    WorkSession's row and open Requests, never the chain, so the chain's bytes are not checked),
#    then the WorkSession's row (revision, last_event_hash and the same two members of its
#    snapshot) set to the last seeded event, so that the host accepts the next append.
# 3. many WorkSessions: `load --light --connections MANY_CONNECTIONS` (default 16) with SESSION_COUNTS
#    (default "100 100000") WorkSessions in the database, seeded by SQL as copies of one WorkSession
#    the host created (its row and its genesis event, ids replaced), each point in a fresh database.
#    Seeded rows (2 and 3) are vacuumed, analyzed and checkpointed before the point.
# 4. two host instances on one database against one: `load --light`, TWO_CONNECTIONS connections
#    (default 16) on one `serve`, then the same split across two `serve`s (two `load` processes,
#    half each), a fresh database each.
#
# Every `serve` is first warmed, unreported, by PREWARM seconds (default 20) of `load --light` with
# 4 connections (its own WorkSessions). Each point: WARMUP seconds (default 10) then DURATION
# seconds (default 15) measured; printed as
# appends/s, p50, p99, errors, the CPU the host JVM(s) and the database (the postmaster and its
# backends) used per append over the measured phase less its first and last 2 s (from /proc), and
# the WAL bytes and full-page images per append over the same window (pg_stat_wal).
#
# Everything runs on a PRIVATE PostgreSQL cluster this script creates and removes (initdb into a
# temporary directory with the newest /usr/lib/postgresql/*/bin, port PG_PORT, default 5498,
# PostgreSQL's defaults otherwise: fsync and synchronous_commit on, autovacuum on; max_wal_size
# raised so that the million-event seeding does not checkpoint all the time). Pinned as
# pinned-ratios.sh pins: the cluster (started under taskset, so every backend inherits it) and
# every `serve` on SERVER_CPU (0), the load generators on LOAD_CPU (1). Run as root (the cluster
# runs as user postgres) or as a user who can run initdb. Needs the CLI and benchmarks jars
# (./mvnw -B -q package -DskipTests -Djarvis.api.skip=true -pl jarvis-cli,jarvis-benchmarks -am).
# CURVES (default "1 2 3 4") picks curves; KEEP=1 keeps the cluster's directory and logs.
# Every process it starts and the cluster are stopped on exit, also on failure or Ctrl-C.
set -euo pipefail

warmup=${WARMUP:-10}
duration=${DURATION:-15}
connections_list=${CONNECTIONS_LIST:-1 2 4 8 16 32 64}
chain_lengths=${CHAIN_LENGTHS:-100000 1000000}
chain_connections=${CHAIN_CONNECTIONS:-1}
session_counts=${SESSION_COUNTS:-100 100000}
many_connections=${MANY_CONNECTIONS:-16}
two_connections=${TWO_CONNECTIONS:-16}
curves=${CURVES:-1 2 3 4}
prewarm_s=${PREWARM:-20}
server_cpu=${SERVER_CPU:-0}
load_cpu=${LOAD_CPU:-1}
pg_port=${PG_PORT:-5498}
root=$(cd "$(dirname "$0")/.." && pwd)
cli=$root/jarvis-cli/target/jarvis-cli.jar
bench=$root/jarvis-benchmarks/target/jarvis-benchmarks.jar
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
token=scale-curves-token
out=$(mktemp -d "${TMPDIR:-/tmp}/scale-curves.XXXXXX")
chmod 755 "$out"
data=$out/pgdata

for jar in "$cli" "$bench"; do
  [[ -f $jar ]] || { echo "no $jar: build it first (see the header)" >&2; exit 2; }
done
if [[ $(id -u) == 0 ]]; then
  as_pg() { runuser -u postgres -- "$@"; }
else
  as_pg() { "$@"; }
fi
mkdir -p "$data" "$out/sock"
[[ $(id -u) == 0 ]] && chown postgres "$data" "$out/sock" "$out"

# The processes this script started and still runs (serve, load, driver), stopped on exit.
STARTED=()
cleanup() {
  local pid
  for pid in "${STARTED[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${STARTED[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  as_pg "$pgbin/pg_ctl" -D "$data" -m fast stop > /dev/null 2>&1 || true
  if [[ ${KEEP:-0} == 1 ]]; then
    echo "kept $out" >&2
  else
    rm -rf "$out"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
forget() { # pid: no longer running, no longer to stop
  local kept=() pid
  for pid in "${STARTED[@]}"; do
    [[ $pid == "$1" ]] || kept+=("$pid")
  done
  STARTED=("${kept[@]}")
}

as_pg "$pgbin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C > "$out/initdb.log"
cat >> "$data/postgresql.conf" <<CONF
port = $pg_port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$out/sock'
max_connections = 200
max_wal_size = 8GB
CONF
# Started pinned: the postmaster and every backend it forks later stay on the server core.
as_pg taskset -c "$server_cpu" "$pgbin/pg_ctl" -D "$data" -l "$out/postgres.log" -w start > /dev/null
postmaster=$(head -n 1 "$data/postmaster.pid")
psql_() { psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pg_port" -U postgres "$@"; }
jdbc() { echo "jdbc:postgresql://127.0.0.1:$pg_port/$1?user=postgres"; }
fresh_db() { psql_ -d postgres -c "CREATE DATABASE $1"; }

cat > "$out/logging.properties" <<'PROPS'
handlers=java.util.logging.ConsoleHandler
.level=INFO
dev.jarvis.host.reference.requests.level=WARNING
PROPS

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# Starts `serve` on the server core against a database; sets SERVE (its pid) and SERVE_URL.
start_serve() { # name db
  local port
  port=$(free_port)
  taskset -c "$server_cpu" java -Djava.util.logging.config.file="$out/logging.properties" \
    -jar "$cli" serve --port "$port" --token "$token" --store "$(jdbc "$2")" \
    > "$out/$1.out" 2> "$out/$1.err" &
  SERVE=$!
  STARTED+=("$SERVE")
  SERVE_URL=http://127.0.0.1:$port
  for _ in $(seq 1 600); do
    grep -q "listening on" "$out/$1.out" 2>/dev/null && return 0
    if ! kill -0 "$SERVE" 2>/dev/null; then
      echo "serve $1 did not start:" >&2
      cat "$out/$1.err" >&2
      exit 1
    fi
    sleep 0.1
  done
  echo "serve $1 did not start within 60 s" >&2
  exit 1
}
# Warms a fresh `serve`'s JIT before its first measured point, unreported: without it the first
# point of a curve would pay for the compiler (a JVM on one shared core takes tens of seconds).
prewarm() { # url...: all of them at once
  ((prewarm_s > 0)) || return 0
  local url pids=() pid
  for url in "$@"; do
    taskset -c "$load_cpu" java -jar "$cli" load --base-url "$url" --token "$token" --connections 4 \
      --warmup 0 --duration "$prewarm_s" --light > "$out/prewarm-${#pids[@]}.log" 2>&1 &
    pids+=($!)
    STARTED+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || true
    forget "$pid"
  done
}
stop_serve() { # pid
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
  forget "$1"
}

# CPU ticks (user + system) so far of the given pids, and of the cluster (postmaster and backends).
ticks() { # pids...
  python3 - "$postmaster" "$@" <<'PY'
import os, sys, time
postmaster, hosts = sys.argv[1], sys.argv[2:]
def used(pid):
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return 0, None
    return int(fields[11]) + int(fields[12]), fields[1]
host = sum(used(p)[0] for p in hosts)
db = 0
for pid in filter(str.isdigit, os.listdir("/proc")):
    t, ppid = used(pid)
    if pid == postmaster or ppid == postmaster:
        db += t
print(host, db, time.monotonic())
PY
}

# The cluster's WAL bytes and full-page images so far (pg_stat_wal).
wal() { psql_ -d postgres -At -F ' ' -c "SELECT wal_bytes, wal_fpi FROM pg_stat_wal"; }

# One point: the given commands (loads, each writing a JSON result) run on the load core; CPU of
# the host pids and the cluster sampled over the measured phase. Prints the point's line.
# The commands are in LOADS, the JSON files they write in JSONS (one each).
measure() { # label host_pids
  local label=$1 host_pids=$2 pids=() i window t0 t1
  for i in "${!LOADS[@]}"; do
    taskset -c "$load_cpu" bash -c "${LOADS[$i]}" > "$out/load-$i.log" 2>&1 &
    pids+=($!)
    STARTED+=($!)
  done
  window=$((duration > 6 ? duration - 4 : 1))
  sleep $((warmup + 2))
  # shellcheck disable=SC2086
  t0=$(ticks $host_pids)
  w0=$(wal)
  sleep "$window"
  # shellcheck disable=SC2086
  t1=$(ticks $host_pids)
  w1=$(wal)
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || true
    forget "${pids[$i]}"
  done
  python3 - "$label" "$t0" "$t1" "$window" "$(getconf CLK_TCK)" "$w0" "$w1" "${JSONS[@]}" <<'PY'
import json, os, sys
label, t0, t1, window, hz, w0, w1 = sys.argv[1:8]
files = sys.argv[8:]
rs = []
for f in files:
    if not os.path.exists(f) or os.path.getsize(f) == 0:
        print(f"  {label:44} no result ({f})")
        sys.exit(0)
    text = open(f).read().strip()
    try:
        rs.append(json.loads(text))  # load's --json file
    except ValueError:
        rs.append(json.loads(text.splitlines()[-1]))  # ChainAppendRun's last line
rate = sum(r["accepted_per_second"] for r in rs)
p50 = max(r["latency_micros"]["p50"] for r in rs) / 1000
p99 = max(r["latency_micros"]["p99"] for r in rs) / 1000
def errors(r):
    if "errors" in r and isinstance(r["errors"], int):
        return r["errors"]
    return sum(r.get("refusals", {}).values()) + sum(r.get("transport_errors", {}).values())
err = sum(errors(r) for r in rs)
h0, d0, m0 = (float(v) for v in t0.split())
h1, d1, m1 = (float(v) for v in t1.split())
w, hz = m1 - m0, float(hz)  # the window's real length: two samples apart
host_ms = (h1 - h0) / hz / (rate * w) * 1000 if rate else 0
db_ms = (d1 - d0) / hz / (rate * w) * 1000 if rate else 0
# WAL per append over the same window (pg_stat_wal: the whole private cluster, nothing else on it).
wb0, wf0 = (float(v) for v in w0.split())
wb1, wf1 = (float(v) for v in w1.split())
appends = rate * w if rate else 1
wal_b, wal_fpi = (wb1 - wb0) / appends, (wf1 - wf0) / appends
# The server core's use: host and database CPU over the window, as a share of one core.
core = ((h1 - h0) + (d1 - d0)) / hz / w
print(f"  {label:44} {rate:8.0f} appends/s  p50 {p50:7.2f} ms  p99 {p99:7.2f} ms  errors {err:4}"
      f"  CPU/append host {host_ms:.3f} + db {db_ms:.3f} = {host_ms + db_ms:.3f} ms  server core {core:.0%}"
      f"  WAL/append {wal_b:.0f} B, {wal_fpi:.2f} full-page images",
      flush=True)
PY
}

# A `load --light` command line against URL with N connections, writing its JSON to FILE.
load_cmd() { # url n file
  echo "java -jar '$cli' load --base-url '$1' --token '$token' --connections $2 --warmup $warmup" \
    "--duration $duration --light --json '$3'"
}
# ChainAppendRun's append mode against URL, on the given WorkSessions, writing its JSON line to FILE.
chain_cmd() { # url actor file ws...
  local url=$1 actor=$2 file=$3
  shift 3
  echo "java -cp '$bench' dev.jarvis.benchmarks.ChainAppendRun append '$url' '$token' '$actor'" \
    "$warmup $duration $* > '$file'"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "scale curves: $(date -u +%FT%TZ), commit $commit, $(nproc) cores, $("$pgbin/postgres" --version)," \
  "private cluster on port $pg_port; warm-up ${warmup}s, measured ${duration}s per point;" \
  "server side on core $server_cpu, load on core $load_cpu; load average $load_before"

has_curve() { [[ " $curves " == *" $1 "* ]]; }

# --- 1. connections ---------------------------------------------------------------------------
if has_curve 1; then
  echo "== 1. connections: load --light, one serve (pool 16), a fresh database"
  fresh_db conns
  start_serve conns conns
  prewarm "$SERVE_URL"
  for n in $connections_list; do
    LOADS=("$(load_cmd "$SERVE_URL" "$n" "$out/conns-$n.json")")
    JSONS=("$out/conns-$n.json")
    measure "connections $n" "$SERVE"
  done
  stop_serve "$SERVE"
fi

# --- 2. one long chain ------------------------------------------------------------------------
# Seeds the WorkSession's chain up to TARGET events (its revision), from its current revision on.
seed_chain() { # db ws target
  psql_ -d "$1" <<SQL
\\timing on
BEGIN;
CREATE TEMP TABLE t AS
  SELECT s.revision AS rev, e.event AS event, e.event_id AS event_id
    FROM jarvis_work_session s JOIN jarvis_event e ON e.work_session_id = s.id AND e.sequence = s.revision
   WHERE s.id = '$2';
-- A stand-in hash per sequence: 64 hex digits, as a sha256 is written.
CREATE FUNCTION pg_temp.h(g bigint) RETURNS text LANGUAGE sql IMMUTABLE AS
  \$\$ SELECT 'sha256:' || md5('$2/' || g) || md5(g || '/$2') \$\$;
INSERT INTO jarvis_event (work_session_id, sequence, event_id, event)
SELECT '$2', g, t.event_id || '-seed-' || g,
       regexp_replace(regexp_replace(regexp_replace(
         replace(t.event, '"' || t.event_id || '"', '"' || t.event_id || '-seed-' || g || '"'),
         '"sequence":[0-9]+', '"sequence":' || g),
         '"previous_hash":"[^"]*"', '"previous_hash":"' || pg_temp.h(g - 1) || '"'),
         '"event_hash":"[^"]*"', '"event_hash":"' || pg_temp.h(g) || '"')
  FROM t, generate_series(t.rev + 1, $3) g;
-- The first seeded event follows the last stored one: its previous_hash is that event's hash.
UPDATE jarvis_event e
   SET event = regexp_replace(e.event, '"previous_hash":"[^"]*"',
                              '"previous_hash":"' || s.last_event_hash || '"')
  FROM t, jarvis_work_session s
 WHERE s.id = '$2' AND e.work_session_id = '$2' AND e.sequence = t.rev + 1;
UPDATE jarvis_work_session
   SET revision = $3, last_event_hash = pg_temp.h($3),
       snapshot = regexp_replace(regexp_replace(snapshot,
         '"revision":[0-9]+', '"revision":$3'),
         '"last_event_hash":"[^"]*"', '"last_event_hash":"' || pg_temp.h($3) || '"')
 WHERE id = '$2';
COMMIT;
-- Vacuumed and analyzed now, so that autovacuum (on, as by default) does not do it for the
-- million inserted rows during the measured point.
VACUUM (ANALYZE) jarvis_event, jarvis_work_session;
CHECKPOINT;
SQL
}

if has_curve 2; then
  echo "== 2. one long chain: ChainAppendRun, $chain_connections thread(s) on one WorkSession, a fresh database"
  fresh_db chain
  start_serve chain chain
  prewarm "$SERVE_URL"
  taskset -c "$load_cpu" java -cp "$bench" dev.jarvis.benchmarks.ChainAppendRun setup "$SERVE_URL" "$token" 1 \
    > "$out/chain-setup.txt"
  actor=$(sed -n 1p "$out/chain-setup.txt")
  ws=$(sed -n 2p "$out/chain-setup.txt")
  threads=()
  for _ in $(seq "$chain_connections"); do threads+=("$ws"); done
  LOADS=("$(chain_cmd "$SERVE_URL" "$actor" "$out/chain-0.json" "${threads[@]}")")
  JSONS=("$out/chain-0.json")
  measure "chain at ~0 events" "$SERVE"
  for length in $chain_lengths; do
    events=$(psql_ -d chain -At -c "SELECT revision FROM jarvis_work_session WHERE id = '$ws'")
    if ((events >= length)); then
      echo "  (the chain already holds $events events, more than $length: point skipped)"
      continue
    fi
    start=$(date +%s)
    seed_chain chain "$ws" "$length" > "$out/seed-$length.log" 2>&1 || { cat "$out/seed-$length.log" >&2; exit 1; }
    echo "  seeded events $events -> $length in $(($(date +%s) - start)) s"
    LOADS=("$(chain_cmd "$SERVE_URL" "$actor" "$out/chain-$length.json" "${threads[@]}")")
    JSONS=("$out/chain-$length.json")
    measure "chain at $length events" "$SERVE"
  done
  echo "  chain: $(psql_ -d chain -At -c "SELECT count(*) || ' events stored, revision ' || max(sequence) FROM jarvis_event WHERE work_session_id = '$ws'"),"\
    "database $(psql_ -d chain -At -c "SELECT pg_size_pretty(pg_database_size('chain'))")"
  stop_serve "$SERVE"
fi

# --- 3. many WorkSessions -----------------------------------------------------------------------
# Copies of one host-made WorkSession (its row and its genesis event), ids replaced, up to COUNT.
seed_sessions() { # db ws count
  psql_ -d "$1" <<SQL
\\timing on
BEGIN;
INSERT INTO jarvis_work_session (id, revision, last_event_hash, sealed, snapshot, created_by_actor_id, status)
SELECT '$2-copy-' || g, s.revision, s.last_event_hash, s.sealed, replace(s.snapshot, '"$2"', '"$2-copy-' || g || '"'),
       s.created_by_actor_id, s.status
  FROM jarvis_work_session s, generate_series(1, $3 - (SELECT count(*) FROM jarvis_work_session)) g
 WHERE s.id = '$2';
INSERT INTO jarvis_event (work_session_id, sequence, event_id, event)
SELECT c.id, e.sequence, e.event_id || '-' || c.id,
       replace(replace(e.event, '"$2"', '"' || c.id || '"'), '"' || e.event_id || '"', '"' || e.event_id || '-' || c.id || '"')
  FROM jarvis_event e, jarvis_work_session c
 WHERE e.work_session_id = '$2' AND c.id LIKE '$2-copy-%'
   AND NOT EXISTS (SELECT 1 FROM jarvis_event x WHERE x.work_session_id = c.id);
COMMIT;
VACUUM (ANALYZE) jarvis_event, jarvis_work_session;
CHECKPOINT;
SQL
}

if has_curve 3; then
  echo "== 3. many WorkSessions: load --light, $many_connections connections, a fresh database per point"
  point=0
  for count in $session_counts; do
    point=$((point + 1))
    db=many_${point}_$count
    fresh_db "$db"
    start_serve "$db" "$db"
    prewarm "$SERVE_URL"
    taskset -c "$load_cpu" java -cp "$bench" dev.jarvis.benchmarks.ChainAppendRun setup "$SERVE_URL" "$token" 1 \
      > "$out/$db-setup.txt"
    ws=$(sed -n 2p "$out/$db-setup.txt")
    start=$(date +%s)
    seed_sessions "$db" "$ws" "$count" > "$out/seed-$db.log" 2>&1 || { cat "$out/seed-$db.log" >&2; exit 1; }
    echo "  seeded $(psql_ -d "$db" -At -c "SELECT count(*) FROM jarvis_work_session") WorkSessions in $(($(date +%s) - start)) s"
    LOADS=("$(load_cmd "$SERVE_URL" "$many_connections" "$out/$db.json")")
    JSONS=("$out/$db.json")
    measure "$count WorkSessions (+$many_connections of the load)" "$SERVE"
    stop_serve "$SERVE"
  done
fi

# --- 4. one host instance against two on one database -------------------------------------------
if has_curve 4; then
  echo "== 4. instances: load --light, $two_connections connections in all, a fresh database per point"
  fresh_db one
  start_serve one one
  prewarm "$SERVE_URL"
  LOADS=("$(load_cmd "$SERVE_URL" "$two_connections" "$out/one.json")")
  JSONS=("$out/one.json")
  measure "1 instance, $two_connections connections" "$SERVE"
  stop_serve "$SERVE"
  fresh_db two
  start_serve two-a two
  a=$SERVE
  a_url=$SERVE_URL
  start_serve two-b two
  b=$SERVE
  prewarm "$a_url" "$SERVE_URL"
  half=$((two_connections / 2))
  LOADS=("$(load_cmd "$a_url" "$half" "$out/two-a.json")" "$(load_cmd "$SERVE_URL" $((two_connections - half)) "$out/two-b.json")")
  JSONS=("$out/two-a.json" "$out/two-b.json")
  measure "2 instances, $half + $((two_connections - half)) connections" "$a $b"
  stop_serve "$a"
  stop_serve "$b"
fi

echo "load average before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg); ended $(date -u +%FT%TZ)"
