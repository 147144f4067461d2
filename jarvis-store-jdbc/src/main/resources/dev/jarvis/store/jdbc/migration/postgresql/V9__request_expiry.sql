-- Requests expire on time (issue 33 item 3): the host's expiry sweep (RequestExpirySweep) asks for the
-- open Requests past their expires_at across WorkSessions (RecordStore.requestsDue), earliest first,
-- from this partial index instead of reading every WorkSession. V8 is left to another change.
--
-- expires_at is RFC 3339 text as the client sent it, with any offset the spec allows (up to
-- +/-23:59, which PostgreSQL's own timestamptz input refuses beyond +/-15:59), a lower-case t or z,
-- a leap second. jarvis_request_expiry reads every such text itself, and answers NULL for anything
-- else rather than fail: an index expression that raised an error would refuse the Request's write.
-- It depends on nothing but its argument (no TimeZone, no DateStyle), so it is IMMUTABLE in fact.
CREATE FUNCTION "${flyway:defaultSchema}".jarvis_request_expiry(body text) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  t text;
  m text[];
  offset_interval interval := interval '0';
BEGIN
  t := pg_catalog.jsonb_extract_path_text(body::jsonb, 'expires_at');
  m := pg_catalog.regexp_match(
    t, '^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt]([0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?)([Zz]|([+-])([0-9]{2}):([0-9]{2}))$');
  IF m IS NULL THEN
    RETURN NULL;
  END IF;
  IF m[5] IS NOT NULL THEN
    offset_interval := pg_catalog.make_interval(hours => m[6]::int, mins => m[7]::int);
    IF m[5] = '-' THEN
      offset_interval := -offset_interval;
    END IF;
  END IF;
  -- The local time read as UTC, then the offset taken off: UTC = local - offset.
  RETURN ((m[1] || ' ' || m[2])::timestamp AT TIME ZONE 'UTC') - offset_interval;
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$fn$;

CREATE INDEX jarvis_protocol_record_open_request_expiry
  ON jarvis_protocol_record ("${flyway:defaultSchema}".jarvis_request_expiry(body), work_session_id, id)
  WHERE kind = 'REQUEST' AND status IN ('pending', 'acknowledged');
