-- The inbox read (request-inbox capability, issue 35 item 1): the Requests that wait on one human
-- Worker across WorkSessions, of some statuses, after a cursor, in write order
-- (RecordStore.inbox). write_order is the table's INTEGER PRIMARY KEY, that is its rowid, and every
-- SQLite index entry ends with the rowid: the V4 index on (target, status) is already ordered by
-- (target, status, write_order), so a page of one status is one range of it. It is written out here
-- with its third key, so that the schema says what the query relies on, and replaces the V4 index.
DROP INDEX protocol_record_request_by_target;
CREATE INDEX jarvis_protocol_record_inbox ON jarvis_protocol_record (
  json_extract(body, '$.target_human_worker_id'),
  status,
  write_order)
  WHERE kind = 'REQUEST';
