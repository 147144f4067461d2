-- Requests expire on time (issue 33 item 3): the host's expiry sweep (RequestExpirySweep) asks for the
-- open Requests past their expires_at across WorkSessions (RecordStore.requestsDue), earliest first,
-- from this partial index instead of reading every WorkSession. V8 is left to another change.
--
-- julianday reads RFC 3339 text with Z or an offset (upper() lets it read a lower-case t or z). A
-- text it cannot read (an offset beyond what SQLite's date functions take, a leap second) is NULL
-- here, so that Request is not swept: it still expires at the next touch of its WorkSession.
CREATE INDEX jarvis_protocol_record_open_request_expiry
  ON jarvis_protocol_record (
    julianday(upper(json_extract(body, '$.expires_at'))), work_session_id, id)
  WHERE kind = 'REQUEST' AND status IN ('pending', 'acknowledged');
