-- The Jarvis host store, SQLite (the embedded default). Same tables and statements as the
-- PostgreSQL schema; only the column types differ.

CREATE TABLE work_session (
  id              TEXT    PRIMARY KEY NOT NULL,
  revision        INTEGER NOT NULL,
  last_event_hash TEXT    NOT NULL,
  sealed          BOOLEAN NOT NULL DEFAULT 0,
  snapshot        TEXT    NOT NULL
);

CREATE TABLE jarvis_event (
  work_session_id TEXT    NOT NULL REFERENCES work_session (id),
  sequence        INTEGER NOT NULL,
  event_id        TEXT    NOT NULL,
  event           TEXT    NOT NULL,
  PRIMARY KEY (work_session_id, sequence)
);
CREATE INDEX jarvis_event_by_id ON jarvis_event (work_session_id, event_id);

CREATE TABLE event_citation (
  work_session_id TEXT    NOT NULL,
  ref             TEXT    NOT NULL,
  sequence        INTEGER NOT NULL,
  PRIMARY KEY (work_session_id, ref, sequence)
);

CREATE TABLE protocol_record (
  write_order         INTEGER PRIMARY KEY AUTOINCREMENT,
  kind                TEXT    NOT NULL,
  work_session_id     TEXT    NOT NULL,
  id                  TEXT    NOT NULL,
  status              TEXT,
  recorded_revision   INTEGER,
  recorded_event_hash TEXT,
  body                TEXT    NOT NULL,
  CONSTRAINT protocol_record_key UNIQUE (kind, work_session_id, id)
);
CREATE INDEX protocol_record_by_status ON protocol_record (work_session_id, kind, status);

CREATE TABLE idempotency_record (
  actor_id         TEXT    NOT NULL,
  operation_id     TEXT    NOT NULL,
  protocol_version TEXT    NOT NULL,
  idempotency_key  TEXT    NOT NULL,
  fingerprint      TEXT    NOT NULL,
  status           INTEGER NOT NULL,
  headers          TEXT    NOT NULL,
  body             BLOB    NOT NULL,
  stored_at_micros INTEGER NOT NULL,
  PRIMARY KEY (actor_id, operation_id, protocol_version, idempotency_key)
);
CREATE INDEX idempotency_record_by_age ON idempotency_record (stored_at_micros);
