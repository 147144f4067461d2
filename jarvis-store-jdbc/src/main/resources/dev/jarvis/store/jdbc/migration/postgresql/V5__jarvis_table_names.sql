-- Table names that say whose they are: a service that keeps Jarvis in its own schema still reads
-- them in its database tools, and one that kept Jarvis in a shared schema (before
-- jarvis.host.store.schema) sees at a glance which tables are Jarvis's. jarvis_event already was.
-- Renames keep every row, index and constraint; JdbcHostStores of this version uses the new names.

ALTER TABLE work_session RENAME TO jarvis_work_session;
ALTER TABLE event_citation RENAME TO jarvis_event_citation;
ALTER TABLE protocol_record RENAME TO jarvis_protocol_record;
ALTER TABLE idempotency_record RENAME TO jarvis_idempotency_record;
ALTER TABLE host_wide_id RENAME TO jarvis_host_wide_id;
