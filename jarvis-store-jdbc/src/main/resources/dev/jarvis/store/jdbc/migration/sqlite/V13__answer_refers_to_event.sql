-- The idempotency answer without a second copy of the event (see the PostgreSQL migration of the
-- same version, which says why and how): an answer that is, byte for byte, the event its own unit
-- of work stores is kept as a reference to that event row (event_work_session_id, event_sequence)
-- with an empty body and without its two cursor headers; a replay rebuilds it from the event.
-- Records stored before (both columns NULL) are read as before. No statement of the store deletes
-- or rewrites an event row, so the reference never dangles.
ALTER TABLE jarvis_idempotency_record ADD COLUMN event_work_session_id TEXT;
ALTER TABLE jarvis_idempotency_record ADD COLUMN event_sequence INTEGER;
