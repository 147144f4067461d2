-- The inbox read (request-inbox capability, issue 35 item 1): the Requests that wait on one human
-- Worker across WorkSessions, of some statuses, after a cursor, in write order
-- (RecordStore.inbox). The V6 index on (target_human_worker_id, status) gains write_order as its
-- last key, so that a page of one status is one range of the index, read in order and stopped at
-- the page's size, whatever the number of Requests the host or the human holds; the per-target
-- count of open Requests (RecordStore.requestsTargeting) reads the same index by its first two
-- keys. One index replaces the other: every Request write maintains one, not two.
DROP INDEX jarvis_protocol_record_request_by_target;
CREATE INDEX jarvis_protocol_record_inbox
  ON jarvis_protocol_record (target_human_worker_id, status, write_order)
  WHERE kind = 'REQUEST';
