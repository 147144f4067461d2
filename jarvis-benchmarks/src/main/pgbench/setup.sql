-- pgbench equivalent of one appended event (docs/benchmarks.md, issue #10): a schema of its own,
-- one row per client's WorkSession, one event table keyed by (session, sequence).
DROP SCHEMA IF EXISTS pgb_bench CASCADE;
CREATE SCHEMA pgb_bench;
CREATE TABLE pgb_bench.session (id int PRIMARY KEY, revision bigint NOT NULL, last_event_hash text NOT NULL);
CREATE TABLE pgb_bench.event (session_id int NOT NULL, seq bigserial, event text NOT NULL, PRIMARY KEY (session_id, seq));
INSERT INTO pgb_bench.session SELECT g, 0, '' FROM generate_series(1, 64) g;
