-- The host's per-principal limits (HostConfig.openWorkSessionsPerActor,
-- pendingRequestsPerTargetHuman; docs/host.md, "Per-principal limits") count across WorkSessions
-- on every createWorkSession and createRequest. Two expression indexes answer those counts without
-- reading every WorkSession: JSON stays text (V1), parsed here once per write of an indexed row.

-- "An Actor's open WorkSessions" (WorkSessionStore.countCreatedBy): creator, then status.
CREATE INDEX work_session_by_creator ON work_session (
  ((snapshot::jsonb) ->> 'created_by_actor_id'),
  ((snapshot::jsonb) ->> 'status'));

-- "Open Requests waiting on one human" (RecordStore.requestsTargeting): Requests only.
CREATE INDEX protocol_record_request_by_target ON protocol_record (
  ((body::jsonb) ->> 'target_human_worker_id'),
  status)
  WHERE kind = 'REQUEST';
