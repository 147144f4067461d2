#!/usr/bin/env bash
# Where the bytes go per PostgreSQL append (docs/benchmarks.md, "Where the bytes go", issue #39):
# WAL bytes, rows and relation bytes per append, the store's statements per append, and the same WAL
# bytes per transaction for pgbench's append-shaped transaction, all on a PRIVATE PostgreSQL cluster
# this script creates and removes (a shared cluster's WAL and table counters hold other work's too).
# Bytes and rows are deterministic; no CPU is measured here (cpu-per-append.sh does that).
#
#   jarvis-benchmarks/wal-per-append.sh [APPENDS] [CONNECTIONS]
#
# APPENDS (default 20000): about how many appends the measured phase makes (its length is set from
# the warm-up's rate; the figures divide by the exact count from jarvis_event). CONNECTIONS
# (default 4): load connections, each appending to its own WorkSession. Then the inbox read
# (RecordStore.inbox, migration V11) is EXPLAIN ANALYZEd at 100 and 100,000 pending Requests
# inserted directly, and the notification outbox's statement (CommitCall, migration V12) is run
# once by hand to count its rows.
#
# The cluster: initdb into a temporary directory with the newest /usr/lib/postgresql/*/bin, port
# PG_PORT (default 5499), fsync, synchronous_commit and full_page_writes left on; autovacuum off and
# checkpoints only when the script asks (one CHECKPOINT before each measured phase, so that both
# sides start from the same state), so that nothing but the measured work writes WAL in a window.
# pg_stat_statements is loaded if the installation has it (track = all: the statements inside
# jarvis_commit are counted too). Needs the CLI jar (./mvnw -B -q package -DskipTests
# -Djarvis.api.skip=true -pl jarvis-cli -am). Run as root, the cluster runs as user postgres.
# KEEP=1 keeps the cluster's directory (and stops the cluster) for a look afterwards.
set -euo pipefail

appends=${1:-20000}
connections=${2:-4}
root=$(cd "$(dirname "$0")/.." && pwd)
cli=$root/jarvis-cli/target/jarvis-cli.jar
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
pg_port=${PG_PORT:-5499}
port=${PORT:-18099}
token=wal-per-append-token
db=jarvis
out=$(mktemp -d "${TMPDIR:-/tmp}/wal-per-append.XXXXXX")
chmod 755 "$out"
data=$out/pgdata

[[ -f $cli ]] || { echo "no $cli: build the CLI first" >&2; exit 2; }
if [[ $(id -u) == 0 ]]; then
  as_pg() { runuser -u postgres -- "$@"; }
else
  as_pg() { "$@"; }
fi
mkdir -p "$data" "$out/sock" "$out/log"
[[ $(id -u) == 0 ]] && chown postgres "$data" "$out/sock" "$out/log"

host=
cleanup() {
  [[ -n $host ]] && kill "$host" 2>/dev/null && wait "$host" 2>/dev/null
  as_pg "$pgbin/pg_ctl" -D "$data" -m fast stop > /dev/null 2>&1 || true
  if [[ ${KEEP:-0} == 1 ]]; then
    echo "kept $out" >&2
  else
    rm -rf "$out"
  fi
}
trap cleanup EXIT

as_pg "$pgbin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C > "$out/initdb.log"
preload=
if [[ -f $("$pgbin/pg_config" --pkglibdir)/pg_stat_statements.so ]]; then
  preload=pg_stat_statements
fi
cat >> "$data/postgresql.conf" <<CONF
port = $pg_port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$out/sock'
fsync = on
synchronous_commit = on
full_page_writes = on
autovacuum = off
checkpoint_timeout = 1h
max_wal_size = 16GB
min_wal_size = 1GB
shared_preload_libraries = '$preload'
pg_stat_statements.track = all
pg_stat_statements.max = 1000
CONF
as_pg "$pgbin/pg_ctl" -D "$data" -l "$out/log/postgres.log" -w start > /dev/null
psql_() { psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pg_port" -U postgres "$@"; }
psql_ -d postgres -c "CREATE DATABASE $db"
if [[ -n $preload ]]; then
  psql_ -d "$db" -c "CREATE EXTENSION pg_stat_statements"
fi

# One snapshot of everything counted, as JSON: the WAL insert position first (nothing before it
# writes), the cluster's WAL counters, rows per table, bytes per table and index, events and
# WorkSessions, the statements (pg_stat_statements) and, for Jarvis's schema, the stored sizes.
snapshot() { # NAME SCHEMA
  python3 - "$pg_port" "$db" "$2" > "$out/$1.json" <<'PY'
import csv, io, json, subprocess, sys
port, db, schema = sys.argv[1:4]
def q(sql):
    r = subprocess.run(["psql", "-X", "-q", "-h", "127.0.0.1", "-p", port, "-U", "postgres", "-d", db,
                        "--csv", "-c", sql], check=True, capture_output=True, text=True).stdout
    return list(csv.DictReader(io.StringIO(r)))
s = {}
s["lsn"] = q("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn AS b, pg_current_wal_insert_lsn() AS l")[0]
s["wal"] = q("SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal")[0]
s["tables"] = q("SELECT schemaname || '.' || relname AS rel, n_tup_ins, n_tup_upd, n_tup_hot_upd,"
                " n_tup_del, seq_scan, coalesce(idx_scan, 0) AS idx_scan FROM pg_stat_user_tables")
s["indexes"] = q("SELECT schemaname || '.' || indexrelname AS rel, relname AS tab, idx_scan"
                 " FROM pg_stat_user_indexes")
s["sizes"] = q("SELECT n.nspname || '.' || c.relname AS rel, c.relkind AS kind,"
               " CASE c.relkind WHEN 'r' THEN pg_table_size(c.oid) ELSE pg_relation_size(c.oid) END AS bytes,"
               " CASE c.relkind WHEN 'i' THEN (SELECT t.relname FROM pg_index x JOIN pg_class t"
               "   ON t.oid = x.indrelid WHERE x.indexrelid = c.oid) END AS tab"
               " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
               " WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')"
               " AND c.relkind IN ('r', 'i')")
has_event = q(f"SELECT to_regclass('{schema}.jarvis_event') IS NOT NULL AS y")[0]["y"] == "t"
if schema and has_event:
    s["events"] = int(q(f"SELECT count(*) AS n FROM {schema}.jarvis_event")[0]["n"])
    s["sessions"] = int(q(f"SELECT count(*) AS n FROM {schema}.jarvis_work_session")[0]["n"])
    s["stored"] = q(
        "SELECT (SELECT avg(octet_length(event)) FROM " + schema + ".jarvis_event WHERE sequence > 1) AS event,"
        " (SELECT avg(pg_column_size(event)) FROM " + schema + ".jarvis_event WHERE sequence > 1) AS event_stored,"
        " (SELECT avg(octet_length(snapshot)) FROM " + schema + ".jarvis_work_session) AS snapshot,"
        " (SELECT avg(pg_column_size(snapshot)) FROM " + schema + ".jarvis_work_session) AS snapshot_stored,"
        " (SELECT avg(octet_length(body)) FROM " + schema + ".jarvis_idempotency_record"
        "   WHERE operation_id = 'appendJarvisEvent') AS answer,"
        " (SELECT avg(pg_column_size(body)) FROM " + schema + ".jarvis_idempotency_record"
        "   WHERE operation_id = 'appendJarvisEvent') AS answer_stored,"
        " (SELECT avg(octet_length(headers)) FROM " + schema + ".jarvis_idempotency_record"
        "   WHERE operation_id = 'appendJarvisEvent') AS answer_headers,"
        " (SELECT avg(pg_column_size(t.*)) FROM " + schema + ".jarvis_idempotency_record t"
        "   WHERE operation_id = 'appendJarvisEvent') AS answer_row,"
        " (SELECT avg(pg_column_size(t.*)) FROM " + schema + ".jarvis_event t WHERE sequence > 1) AS event_row,"
        " (SELECT avg(pg_column_size(t.*)) FROM " + schema + ".jarvis_work_session t) AS session_row")[0]
elif schema:
    s["events"] = int(q(f"SELECT count(*) AS n FROM {schema}.event")[0]["n"])
try:
    s["statements"] = q("SELECT toplevel, calls, rows, mean_exec_time, total_exec_time, wal_records,"
                        " wal_fpi, wal_bytes, regexp_replace(query, '\\s+', ' ', 'g') AS query"
                        " FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database"
                        " WHERE datname = current_database()) ORDER BY calls DESC")
except subprocess.CalledProcessError:
    s["statements"] = []
json.dump(s, sys.stdout)
PY
}

# The window: the last work's counters flushed (a backend still connected flushes what it holds
# once idle for PGSTAT_IDLE_INTERVAL, 10 s), counters zeroed, one CHECKPOINT, the before snapshot.
begin_window() { # NAME SCHEMA
  sleep 11
  psql_ -d "$db" -c "CHECKPOINT" -c "SELECT pg_stat_reset_shared('wal')" > /dev/null
  if [[ -n $preload ]]; then
    psql_ -d "$db" -c "SELECT pg_stat_statements_reset()" > /dev/null
  fi
  snapshot "$1.before" "$2"
}
# The measured work's backends have exited (their counters flushed as they did): the after snapshot.
end_window() { # NAME SCHEMA
  sleep 1
  psql_ -d "$db" -c "SELECT pg_stat_force_next_flush()" > /dev/null 2>&1 || true
  snapshot "$1.after" "$2"
  local from to
  from=$(python3 -c "import json; print(json.load(open('$out/$1.before.json'))['lsn']['l'])")
  to=$(python3 -c "import json; print(json.load(open('$out/$1.after.json'))['lsn']['l'])")
  # The window's WAL by resource manager (heap, btree, transaction ...), full-page images apart.
  "$pgbin/pg_waldump" -p "$data/pg_wal" -s "$from" -e "$to" --stats=record > "$out/$1.waldump" 2>&1 || true
}

# --- Jarvis: serve on the private cluster, driven by `jarvis-cli load --light` -------------------
cat > "$out/logging.properties" <<'PROPS'
handlers=java.util.logging.ConsoleHandler
.level=INFO
dev.jarvis.host.reference.requests.level=WARNING
PROPS
java -Djava.util.logging.config.file="$out/logging.properties" -jar "$cli" serve --port "$port" \
  --token "$token" --store "jdbc:postgresql://127.0.0.1:$pg_port/$db?user=postgres" \
  > "$out/serve.log" 2>&1 &
host=$!
for _ in $(seq 150); do
  grep -q "listening on" "$out/serve.log" 2>/dev/null && break
  kill -0 "$host" 2> /dev/null || { cat "$out/serve.log" >&2; exit 1; }
  sleep 0.2
done
schema=$(psql_ -d "$db" -At -c "SELECT schemaname FROM pg_tables WHERE tablename = 'jarvis_event'")

load() { # WARMUP_S DURATION_S JSON
  java -jar "$cli" load --base-url "http://127.0.0.1:$port" --token "$token" --light \
    --connections "$connections" --warmup "$1" --duration "$2" --json "$3" > "$3.log" 2>&1
}
# Warm-up: the JIT, the pool, the server-prepared statements; its rate sets the window's length.
load 10 10 "$out/warmup.json"
rate=$(python3 -c "import json; print(json.load(open('$out/warmup.json'))['accepted_per_second'])")
duration=$(python3 -c "import math; print(max(1, math.ceil($appends / $rate)))")
begin_window jarvis "$schema"
load 0 "$duration" "$out/measured.json"
# The host stops first: its backends flush their counters as they exit, and no background work of
# the host (the notification dispatcher's polls) writes after the last append.
kill "$host" && wait "$host" 2>/dev/null || true
host=
end_window jarvis "$schema"

# --- pgbench: the append-shaped transaction on the same cluster ------------------------------------
psql_ -d "$db" -f "$root/jarvis-benchmarks/src/main/pgbench/setup.sql" > /dev/null 2>&1
bench=(-n -c "$connections" -j 1 -f "$root/jarvis-benchmarks/src/main/pgbench/append.sql"
  -h 127.0.0.1 -p "$pg_port" -U postgres)
pgbench "${bench[@]}" -T 10 "$db" > "$out/pgbench-warmup.log" 2>&1
begin_window pgbench pgb_bench
pgbench "${bench[@]}" -t $(((appends + connections - 1) / connections)) "$db" > "$out/pgbench.log" 2>&1
end_window pgbench pgb_bench

# --- The report --------------------------------------------------------------------------------------
python3 - "$out" "$schema" "$connections" "$pgbin" <<'PY'
import json, re, sys
out, schema, connections, pgbin = sys.argv[1:5]
def load(name):
    return json.load(open(f"{out}/{name}.json"))
def by(rows, key="rel"):
    return {r[key]: r for r in rows}
def delta(name):
    b, a = load(f"{name}.before"), load(f"{name}.after")
    return b, a, int(a["lsn"]["b"]) - int(b["lsn"]["b"])
def waldump(name):
    text = open(f"{out}/{name}.waldump").read()
    rows = []
    for line in text.splitlines():
        m = re.match(r"^(\S[^\s]*(?:/\S+)?)\s+(\d+)\s+\(\s*[\d.]+\)\s+(\d+)\s+\(\s*[\d.]+\)\s+(\d+)\s+\(\s*[\d.]+\)\s+(\d+)\s+\(\s*[\d.]+\)", line.strip())
        if m and m.group(1) not in ("Type",):
            rows.append((m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5))))
    return rows, text

def tables(b, a, n, only):
    bt, at = by(b["tables"]), by(a["tables"])
    print(f"  {'table':42} {'ins':>7} {'upd':>7} {'(hot)':>7} {'del':>7}   per append")
    for rel in sorted(at):
        if not rel.startswith(only + "."):
            continue
        d = {k: int(at[rel][k]) - int(bt.get(rel, {}).get(k, 0)) for k in ("n_tup_ins", "n_tup_upd", "n_tup_hot_upd", "n_tup_del")}
        if any(d.values()):
            print(f"  {rel:42} {d['n_tup_ins']:7} {d['n_tup_upd']:7} {d['n_tup_hot_upd']:7} {d['n_tup_del']:7}"
                  f"   ins {d['n_tup_ins']/n:.3f} upd {d['n_tup_upd']/n:.3f} (hot {d['n_tup_hot_upd']/n:.3f}) del {d['n_tup_del']/n:.3f}")
def sizes(b, a, n, only):
    bs, as_ = by(b["sizes"]), by(a["sizes"])
    total = 0
    print(f"  {'relation':58} {'kind':5} {'bytes added':>12} {'per append':>11}")
    for rel in sorted(as_, key=lambda r: (as_[r]["tab"] or r.split(".")[1], as_[r]["kind"] != "r", r)):
        if not rel.startswith(only + "."):
            continue
        d = int(as_[rel]["bytes"]) - int(bs.get(rel, {}).get("bytes", 0))
        total += d
        kind = "table" if as_[rel]["kind"] == "r" else "index"
        print(f"  {rel:58} {kind:5} {d:12} {d/n:11.1f}")
    print(f"  {'all of them':58} {'':5} {total:12} {total/n:11.1f}")
def statements(a, n):
    if not a["statements"]:
        print("  (pg_stat_statements not available)")
        return
    print(f"  {'calls/append':>12} {'mean ms':>8} {'WAL B/call':>10} {'FPI/call':>8}  statement (top = the client's; nested = inside a function)")
    for s in a["statements"]:
        calls = int(s["calls"])
        if calls < n / 100:
            continue
        query = s["query"]
        query = query if len(query) < 150 else query[:147] + "..."
        print(f"  {calls/n:12.3f} {float(s['mean_exec_time']):8.3f} {int(s['wal_bytes'])/calls:10.1f}"
              f" {int(s['wal_fpi'])/calls:8.3f}  {'top' if s['toplevel']=='t' else 'nested'}: {query}")
def wal(name, n):
    rows, text = waldump(name)
    if not rows:
        print("  (pg_waldump gave no statistics)\n" + text[-500:])
        return
    print(f"  {'resource manager':28} {'records':>9} {'rec B':>11} {'FPI B':>11} {'combined':>11}   per append: records, B")
    for name_, recs, rec_b, fpi_b, comb in rows:
        if recs == 0 and comb == 0:
            continue
        print(f"  {name_:28} {recs:9} {rec_b:11} {fpi_b:11} {comb:11}   {recs/n:6.2f} {comb/n:9.1f}")

jb, ja, jwal = delta("jarvis")
events = ja["events"] - jb["events"]
sessions = ja["sessions"] - jb["sessions"]
appends = events - sessions  # a new WorkSession's first event is its genesis, not an append
m = load("measured")
print(f"== Jarvis host on PostgreSQL ({pgbin}), schema {schema}, {connections} connections, load --light")
print(f"  events stored in the window {events} = {appends} appends + {sessions} genesis events "
      f"(new WorkSessions); host answered {m.get('accepted', '?')} accepted")
wb = ja["wal"]
print(f"  WAL: {jwal} bytes = {jwal/events:.1f} bytes per event (pg_stat_wal: {int(wb['wal_records'])/events:.2f}"
      f" records, {int(wb['wal_fpi'])/events:.3f} full-page images, {int(wb['wal_bytes'])/events:.1f} bytes per event)")
st = ja["stored"]
print(f"  stored per append: event {float(st['event']):.0f} B text ({float(st['event_stored']):.0f} B as stored),"
      f" WorkSession snapshot {float(st['snapshot']):.0f} B ({float(st['snapshot_stored']):.0f} B as stored, rewritten per append),"
      f" idempotency answer body {float(st['answer'] or 0):.0f} B ({float(st['answer_stored'] or 0):.0f} B as stored) + headers {float(st['answer_headers'] or 0):.0f} B")
print(f"  row sizes (pg_column_size of the row, before the 24 B tuple header and line pointer): event {float(st['event_row']):.0f} B,"
      f" idempotency record {float(st['answer_row'] or 0):.0f} B, WorkSession {float(st['session_row']):.0f} B")
print("  rows (pg_stat_user_tables deltas):")
tables(jb, ja, events, schema)
print("  bytes (pg_table_size / pg_relation_size deltas):")
sizes(jb, ja, events, schema)
print("  WAL by resource manager (pg_waldump --stats):")
wal("jarvis", events)
print("  statements (pg_stat_statements, track = all), per event:")
statements(ja, events)

pb, pa, pwal = delta("pgbench")
tx = pa["events"] - pb["events"]
print(f"\n== pgbench append.sql on the same cluster, {connections} clients")
print(f"  transactions {tx}; WAL {pwal} bytes = {pwal/tx:.1f} bytes per transaction "
      f"({int(pa['wal']['wal_records'])/tx:.2f} records, {int(pa['wal']['wal_fpi'])/tx:.3f} full-page images)")
print("  rows:")
tables(pb, pa, tx, "pgb_bench")
print("  bytes:")
sizes(pb, pa, tx, "pgb_bench")
print("  WAL by resource manager:")
wal("pgbench", tx)
print(f"\n== ratio: Jarvis {jwal/events:.0f} WAL bytes per event, pgbench {pwal/tx:.0f} per transaction: {jwal/events/(pwal/tx):.2f}x")
print(f"== index use during the Jarvis window (idx_scan deltas; 0 = not read by an append):")
bi, ai = by(jb["indexes"]), by(ja["indexes"])
for rel in sorted(ai):
    if rel.startswith(schema + "."):
        print(f"  {rel:60} {int(ai[rel]['idx_scan']) - int(bi.get(rel, {}).get('idx_scan', 0)):9}")
PY

# --- The inbox read at 100 and 100,000 pending Requests (RecordStore.inbox, migration V11) --------
# Requests shaped as the store writes them: kind REQUEST, the WorkSession's id, status 'pending',
# target_human_worker_id beside the body, over 10,000 WorkSessions. The human read holds 100 of them
# at either scale; the other 99,900 wait on 1,000 other humans.
inbox_sql() { # HUMAN CURSOR: the query JdbcHostStores.inbox sends, one status, server-prepared (generic plan)
  cat <<SQL
PREPARE inbox(text, text, bigint, int) AS
SELECT write_order, kind, work_session_id, id, recorded_revision, recorded_event_hash, body
  FROM $schema.jarvis_protocol_record
 WHERE kind = 'REQUEST' AND work_session_id <> '' AND target_human_worker_id = \$1
   AND status IN (\$2) AND write_order > \$3 ORDER BY write_order LIMIT \$4;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) EXECUTE inbox('$1', 'pending', $2, 50);
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) EXECUTE inbox('$1', 'pending', $2, 50);
SQL
}
fill_requests() { # FROM TO HUMAN (an SQL expression of g)
  psql_ -d "$db" <<SQL
INSERT INTO $schema.jarvis_protocol_record
  (kind, work_session_id, id, status, recorded_revision, recorded_event_hash, body, target_human_worker_id)
SELECT 'REQUEST', 'ws-inbox-' || (g % 10000), 'req-inbox-' || g, 'pending', 2,
       'sha256:' || md5(g::text) || md5(g::text),
       '{"id":"req-inbox-' || g || '","work_session_id":"ws-inbox-' || (g % 10000)
         || '","status":"pending","target_human_worker_id":"' || $3
         || '","question":"Approve the deployment of build ' || g || '?","expires_at":"2027-01-01T00:00:00Z"}',
       $3
  FROM generate_series($1, $2) g;
ANALYZE $schema.jarvis_protocol_record;
SQL
}
echo
echo "== inbox read, 100 pending Requests (100 for the human read)"
fill_requests 1 100 "'human-inbox-7'"
psql_ -d "$db" <<< "$(inbox_sql human-inbox-7 0)" | sed 's/^/  /'
echo "== inbox read, 100,000 pending Requests across 10,000 WorkSessions and 1,000 humans (the same 100 for the human read)"
fill_requests 101 100000 "'human-other-' || (g % 1000)"
psql_ -d "$db" -c "ANALYZE $schema.jarvis_protocol_record" > /dev/null
psql_ -d "$db" <<< "$(inbox_sql human-inbox-7 0)" | sed 's/^/  /'
echo "== inbox read, one human holding 100,000 more pending Requests (200,100 in all): the first page, and a page"
echo "   after a cursor 90,000 Requests into the human's range"
fill_requests 100001 200000 "'human-inbox-big'"
deep=$(psql_ -d "$db" -At -c "SELECT write_order FROM $schema.jarvis_protocol_record WHERE id = 'req-inbox-190000'")
for cursor in 0 "$deep"; do
  inbox_sql human-inbox-big "$cursor" | psql_ -d "$db" \
    | grep -E 'Index Scan|Index Cond|Buffers: shared|Execution Time|Limit' | tail -n 5 | sed 's/^/  /'
done

# --- The notification outbox: one unit of work with a notification (CommitCall's notifying form) --
echo
echo "== notification outbox (V12): a unit with a notification is one statement; rows it adds"
# Each step in a session of its own: a session's table counters are flushed when it ends.
rows_now() {
  psql_ -d "$db" -At -F ' ' -c "SELECT relname, n_tup_ins FROM pg_stat_user_tables WHERE schemaname = '$schema' ORDER BY 1"
}
if [[ -n $preload ]]; then
  psql_ -d "$db" -c "SELECT pg_stat_statements_reset()" > /dev/null
fi
rows_now > "$out/outbox.before"
lsn_before=$(psql_ -d "$db" -At -c "SELECT pg_current_wal_insert_lsn()")
psql_ -d "$db" -At <<SQL | sed 's/^/  /'
WITH c AS (SELECT o_outcome FROM $schema.jarvis_commit(
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    NULL, NULL, NULL, NULL,
    ARRAY['REQUEST'], ARRAY['ws-inbox-1'], ARRAY['req-outbox-1'], ARRAY['pending'], ARRAY[2::bigint],
    ARRAY['sha256:x'], ARRAY['{"id":"req-outbox-1"}'], ARRAY[true], ARRAY['human-inbox-1'])),
  o AS (INSERT INTO $schema.jarvis_notification_outbox (id, notification, next_attempt_micros)
        SELECT 'ntf-1', '{"type":"request.waiting"}', 0 FROM c WHERE c.o_outcome = 'COMMITTED')
SELECT 'outcome ' || o_outcome FROM c;
SQL
lsn_after=$(psql_ -d "$db" -At -c "SELECT pg_current_wal_insert_lsn()")
sleep 1
rows_now > "$out/outbox.after"
join "$out/outbox.before" "$out/outbox.after" | awk '$3 > $2 { printf "  rows inserted: %s %d\n", $1, $3 - $2 }'
echo "  WAL of the unit: $(psql_ -d "$db" -At -c "SELECT '$lsn_after'::pg_lsn - '$lsn_before'::pg_lsn") bytes"
lsn_before=$(psql_ -d "$db" -At -c "SELECT pg_current_wal_insert_lsn()")
psql_ -d "$db" -At <<SQL > /dev/null
SELECT o_outcome FROM $schema.jarvis_commit(
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    NULL, NULL, NULL, NULL,
    ARRAY['REQUEST'], ARRAY['ws-inbox-1'], ARRAY['req-outbox-2'], ARRAY['pending'], ARRAY[2::bigint],
    ARRAY['sha256:x'], ARRAY['{"id":"req-outbox-2"}'], ARRAY[true], ARRAY['human-inbox-1']);
SQL
lsn_after=$(psql_ -d "$db" -At -c "SELECT pg_current_wal_insert_lsn()")
echo "  WAL of the same unit without the notification: $(psql_ -d "$db" -At -c "SELECT '$lsn_after'::pg_lsn - '$lsn_before'::pg_lsn") bytes"
if [[ -n $preload ]]; then
  psql_ -d "$db" -At -c "SELECT 'top-level calls of the notifying statement: ' || sum(calls) FROM pg_stat_statements WHERE toplevel AND query LIKE 'WITH c AS (SELECT o_outcome%'" | sed 's/^/  /'
fi
echo
echo "== cluster: $("$pgbin/postgres" --version), $(nproc) cores, $(date -u +%FT%TZ)," \
  "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
