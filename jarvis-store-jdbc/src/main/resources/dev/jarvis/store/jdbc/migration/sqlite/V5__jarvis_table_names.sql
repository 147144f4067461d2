-- Table names that say whose they are (see the PostgreSQL migration of the same version). SQLite
-- (3.26 and later, which sqlite-jdbc bundles) rewrites the references of indexes and of
-- jarvis_event's foreign key to the renamed tables.

ALTER TABLE work_session RENAME TO jarvis_work_session;
ALTER TABLE event_citation RENAME TO jarvis_event_citation;
ALTER TABLE protocol_record RENAME TO jarvis_protocol_record;
ALTER TABLE idempotency_record RENAME TO jarvis_idempotency_record;
ALTER TABLE host_wide_id RENAME TO jarvis_host_wide_id;
