-- One round trip per unit of work (issue 25 item 4): JdbcHostStores.commit calls jarvis_commit once,
-- in one transaction, instead of sending the claim, the WorkSession update, the event, its citations
-- and each record as statements of their own.
--
-- The per-principal counts stop parsing JSON on every write: V4 indexed (snapshot::jsonb) and
-- (body::jsonb), so each append re-parsed the whole WorkSession snapshot as jsonb to maintain the
-- index. The two members those counts need become plain columns, written by the store beside the
-- text it stores, and filled here from the rows already stored.

ALTER TABLE jarvis_work_session ADD COLUMN created_by_actor_id text;
ALTER TABLE jarvis_work_session ADD COLUMN status text;
UPDATE jarvis_work_session
   SET created_by_actor_id = (snapshot::jsonb) ->> 'created_by_actor_id',
       status = (snapshot::jsonb) ->> 'status';
DROP INDEX work_session_by_creator;
CREATE INDEX jarvis_work_session_by_creator ON jarvis_work_session (created_by_actor_id, status);

ALTER TABLE jarvis_protocol_record ADD COLUMN target_human_worker_id text;
UPDATE jarvis_protocol_record
   SET target_human_worker_id = (body::jsonb) ->> 'target_human_worker_id'
 WHERE kind = 'REQUEST';
DROP INDEX protocol_record_request_by_target;
CREATE INDEX jarvis_protocol_record_request_by_target
  ON jarvis_protocol_record (target_human_worker_id, status)
  WHERE kind = 'REQUEST';

-- One unit of work, checked in the order HostStores.commit states: the idempotency claim, the chain
-- write's condition, the create-only records and the host-wide ids. A claim that a live record
-- holds writes nothing and answers 'KEY_TAKEN' with that record ('KEY_GONE' if it expired before it
-- could be read: the caller claims again). Any later failed condition raises SQLSTATE JV409, which
-- undoes what the call wrote: the caller rolls back and answers CONFLICT. The tables are named with
-- the schema the store was migrated into, so a caller's search_path never changes what it writes.
CREATE FUNCTION jarvis_commit(
  -- the idempotency claim; c_key NULL: none
  c_actor text, c_operation text, c_version text, c_key text, c_fingerprint text, c_status integer,
  c_headers text, c_body bytea, c_stored_at bigint, c_not_before bigint,
  -- the chain write: w_kind NULL none, 'GENESIS', 'APPEND' or 'SEAL'; w_expected_* its condition
  w_kind text, w_id text, w_expected_revision bigint, w_expected_hash text, w_revision bigint,
  w_hash text, w_snapshot text, w_creator text, w_status text,
  -- the event of a genesis or an append, with its distinct evidence_refs
  e_sequence bigint, e_id text, e_event text, e_refs text[],
  -- the records, one array element each ('' work session: none)
  r_kinds text[], r_work_sessions text[], r_ids text[], r_statuses text[], r_revisions bigint[],
  r_hashes text[], r_bodies text[], r_create_only boolean[], r_targets text[],
  OUT o_outcome text, OUT o_fingerprint text, OUT o_status integer, OUT o_headers text,
  OUT o_body bytea, OUT o_stored_at bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  n bigint;
BEGIN
  IF c_key IS NOT NULL THEN
    -- ON CONFLICT waits for a concurrent claimer's transaction; the loser reads the winner's record.
    INSERT INTO "${flyway:defaultSchema}".jarvis_idempotency_record AS i
      (actor_id, operation_id, protocol_version, idempotency_key, fingerprint, status, headers,
       body, stored_at_micros)
    VALUES (c_actor, c_operation, c_version, c_key, c_fingerprint, c_status, c_headers, c_body,
            c_stored_at)
    ON CONFLICT (actor_id, operation_id, protocol_version, idempotency_key)
    DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
                  headers = excluded.headers, body = excluded.body,
                  stored_at_micros = excluded.stored_at_micros
      WHERE i.stored_at_micros < c_not_before;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 0 THEN
      SELECT i.fingerprint, i.status, i.headers, i.body, i.stored_at_micros
        INTO o_fingerprint, o_status, o_headers, o_body, o_stored_at
        FROM "${flyway:defaultSchema}".jarvis_idempotency_record i
       WHERE i.actor_id = c_actor AND i.operation_id = c_operation
         AND i.protocol_version = c_version AND i.idempotency_key = c_key
         AND i.stored_at_micros >= c_not_before;
      o_outcome := CASE WHEN FOUND THEN 'KEY_TAKEN' ELSE 'KEY_GONE' END;
      RETURN;
    END IF;
  END IF;

  IF w_kind = 'GENESIS' THEN
    INSERT INTO "${flyway:defaultSchema}".jarvis_work_session
      (id, revision, last_event_hash, sealed, snapshot, created_by_actor_id, status)
    VALUES (w_id, w_revision, w_hash, false, w_snapshot, w_creator, w_status)
    ON CONFLICT (id) DO NOTHING;
  ELSIF w_kind = 'APPEND' THEN
    UPDATE "${flyway:defaultSchema}".jarvis_work_session
       SET revision = w_revision, last_event_hash = w_hash, snapshot = w_snapshot,
           status = w_status
     WHERE id = w_id AND revision = w_expected_revision AND last_event_hash = w_expected_hash
       AND NOT sealed;
  ELSIF w_kind = 'SEAL' THEN
    UPDATE "${flyway:defaultSchema}".jarvis_work_session SET sealed = true
     WHERE id = w_id AND revision = w_expected_revision AND last_event_hash = w_expected_hash
       AND NOT sealed;
  END IF;
  IF w_kind IS NOT NULL THEN
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 0 THEN
      RAISE EXCEPTION 'the chain write''s condition failed' USING ERRCODE = 'JV409';
    END IF;
  END IF;
  IF e_event IS NOT NULL THEN
    INSERT INTO "${flyway:defaultSchema}".jarvis_event (work_session_id, sequence, event_id, event)
    VALUES (w_id, e_sequence, e_id, e_event);
    INSERT INTO "${flyway:defaultSchema}".jarvis_event_citation (work_session_id, ref, sequence)
    SELECT w_id, ref, e_sequence FROM unnest(e_refs) AS ref;
  END IF;

  FOR k IN 1 .. coalesce(array_length(r_ids, 1), 0) LOOP
    IF r_work_sessions[k] <> '' THEN
      -- The host-wide id: taken now, or held already by this WorkSession (before V3, its record).
      INSERT INTO "${flyway:defaultSchema}".jarvis_host_wide_id (kind, id, work_session_id)
      VALUES (r_kinds[k], r_ids[k], r_work_sessions[k])
      ON CONFLICT (kind, id) DO NOTHING;
      GET DIAGNOSTICS n = ROW_COUNT;
      IF n = 0
         AND NOT EXISTS (SELECT 1 FROM "${flyway:defaultSchema}".jarvis_host_wide_id h
                          WHERE h.kind = r_kinds[k] AND h.id = r_ids[k]
                            AND h.work_session_id = r_work_sessions[k])
         AND NOT EXISTS (SELECT 1 FROM "${flyway:defaultSchema}".jarvis_protocol_record p
                          WHERE p.kind = r_kinds[k] AND p.id = r_ids[k]
                            AND p.work_session_id = r_work_sessions[k]) THEN
        RAISE EXCEPTION 'another WorkSession holds the id' USING ERRCODE = 'JV409';
      END IF;
    END IF;
    IF r_create_only[k] THEN
      INSERT INTO "${flyway:defaultSchema}".jarvis_protocol_record
        (kind, work_session_id, id, status, recorded_revision, recorded_event_hash, body,
         target_human_worker_id)
      VALUES (r_kinds[k], r_work_sessions[k], r_ids[k], r_statuses[k], r_revisions[k],
              r_hashes[k], r_bodies[k], r_targets[k])
      ON CONFLICT (kind, work_session_id, id) DO NOTHING;
      GET DIAGNOSTICS n = ROW_COUNT;
      IF n = 0 THEN
        RAISE EXCEPTION 'the record exists' USING ERRCODE = 'JV409';
      END IF;
    ELSE
      INSERT INTO "${flyway:defaultSchema}".jarvis_protocol_record
        (kind, work_session_id, id, status, recorded_revision, recorded_event_hash, body,
         target_human_worker_id)
      VALUES (r_kinds[k], r_work_sessions[k], r_ids[k], r_statuses[k], r_revisions[k],
              r_hashes[k], r_bodies[k], r_targets[k])
      ON CONFLICT (kind, work_session_id, id)
      DO UPDATE SET status = excluded.status, recorded_revision = excluded.recorded_revision,
                    recorded_event_hash = excluded.recorded_event_hash, body = excluded.body,
                    target_human_worker_id = excluded.target_human_worker_id;
    END IF;
  END LOOP;
  o_outcome := 'COMMITTED';
END;
$fn$;
