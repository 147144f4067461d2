-- Whether a human Worker has an Actor able to review (RecordStore.actorsOf; docs/host.md, "Who
-- governs a WorkSession"). Same index as the PostgreSQL schema, in SQLite's JSON functions.
CREATE INDEX jarvis_protocol_record_actor_by_worker
  ON jarvis_protocol_record (json_extract(body, '$.worker_id'), write_order)
  WHERE kind = 'ACTOR' AND work_session_id = '';
