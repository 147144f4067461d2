-- The host's per-principal limits (HostConfig.openWorkSessionsPerActor,
-- pendingRequestsPerTargetHuman; docs/host.md, "Per-principal limits") count across WorkSessions
-- on every createWorkSession and createRequest. Two expression indexes answer those counts without
-- reading every WorkSession. Same indexes as the PostgreSQL schema, in SQLite's JSON functions.

-- "An Actor's open WorkSessions" (WorkSessionStore.countCreatedBy): creator, then status.
CREATE INDEX work_session_by_creator ON work_session (
  json_extract(snapshot, '$.created_by_actor_id'),
  json_extract(snapshot, '$.status'));

-- "Open Requests waiting on one human" (RecordStore.requestsTargeting): Requests only.
CREATE INDEX protocol_record_request_by_target ON protocol_record (
  json_extract(body, '$.target_human_worker_id'),
  status)
  WHERE kind = 'REQUEST';
