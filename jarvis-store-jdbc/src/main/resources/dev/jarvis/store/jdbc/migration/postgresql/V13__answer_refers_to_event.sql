-- The idempotency answer without a second copy of the event (docs/benchmarks.md, "Where the bytes
-- go", cut 1). appendJarvisEvent's 201 answers the appended event itself, byte for byte: stored
-- whole, every append wrote the event twice (jarvis_event.event and this table's body) and its hash
-- twice more (the answer's Jarvis-WorkSession-Revision / Jarvis-Last-Event-Hash headers). Such an
-- answer is now stored as a reference to the event row its own unit of work inserts:
-- event_work_session_id and event_sequence set, body empty, and the two cursor headers left out of
-- headers; a replay reads the event with the record and puts back the body (the event's text) and
-- the two headers (its sequence and event_hash). The store takes the reference only when that
-- rebuild gives back exactly the answer it was handed (StoredAnswer), so a replay answers byte for
-- byte and header for header as the first attempt did. Every other answer, and every record stored
-- before this migration, is stored whole as before (both columns NULL) and read as before.
--
-- The reference never dangles: no statement of the store deletes or rewrites a jarvis_event row
-- (the retention cleanup deletes idempotency records only, IdempotencyPurge), and the record is
-- written in the same transaction as the event it refers to. Should an event row ever be missing,
-- the read refuses the record (a store error) rather than answer something else.
--
-- The fingerprint and the claim (the primary key, ON CONFLICT ... WHERE stored_at_micros < the
-- window) are unchanged; a record replaced after its window takes the new answer's form, reference
-- or whole. Adding NULL columns rewrites no row.
ALTER TABLE jarvis_idempotency_record
  ADD COLUMN event_work_session_id text,
  ADD COLUMN event_sequence        bigint;

-- jarvis_commit (V6, search_path fixed by V7) again, with three changes: a claim whose c_body is
-- NULL refers to the event of the same call (w_id, e_sequence); a taken key answers its record with
-- the referenced event (o_event_sequence, o_event), from which the caller rebuilds the answer; an
-- event comes only with a genesis or an append of its WorkSession (what the caller always sent,
-- now also refused otherwise). Its result columns change, so it is dropped and created in this
-- migration's transaction.
DROP FUNCTION "${flyway:defaultSchema}".jarvis_commit(
  text, text, text, text, text, integer, text, bytea, bigint, bigint,
  text, text, bigint, text, bigint, text, text, text, text,
  bigint, text, text, text[],
  text[], text[], text[], text[], bigint[], text[], text[], boolean[], text[]);

CREATE FUNCTION "${flyway:defaultSchema}".jarvis_commit(
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
  OUT o_body bytea, OUT o_stored_at bigint, OUT o_event_sequence bigint, OUT o_event text)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  n bigint;
BEGIN
  IF c_key IS NOT NULL THEN
    IF c_body IS NULL AND (e_event IS NULL OR w_id IS NULL) THEN
      -- A reference to an event the call does not store: refused, never stored dangling.
      RAISE EXCEPTION 'the answer refers to an event the unit does not store';
    END IF;
    -- ON CONFLICT waits for a concurrent claimer's transaction; the loser reads the winner's record.
    INSERT INTO "${flyway:defaultSchema}".jarvis_idempotency_record AS i
      (actor_id, operation_id, protocol_version, idempotency_key, fingerprint, status, headers,
       body, stored_at_micros, event_work_session_id, event_sequence)
    VALUES (c_actor, c_operation, c_version, c_key, c_fingerprint, c_status, c_headers,
            coalesce(c_body, ''::bytea), c_stored_at,
            CASE WHEN c_body IS NULL THEN w_id END, CASE WHEN c_body IS NULL THEN e_sequence END)
    ON CONFLICT (actor_id, operation_id, protocol_version, idempotency_key)
    DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
                  headers = excluded.headers, body = excluded.body,
                  stored_at_micros = excluded.stored_at_micros,
                  event_work_session_id = excluded.event_work_session_id,
                  event_sequence = excluded.event_sequence
      WHERE i.stored_at_micros < c_not_before;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 0 THEN
      SELECT i.fingerprint, i.status, i.headers, i.body, i.stored_at_micros, i.event_sequence,
             e.event
        INTO o_fingerprint, o_status, o_headers, o_body, o_stored_at, o_event_sequence, o_event
        FROM "${flyway:defaultSchema}".jarvis_idempotency_record i
        LEFT JOIN "${flyway:defaultSchema}".jarvis_event e
          ON e.work_session_id = i.event_work_session_id AND e.sequence = i.event_sequence
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
    -- An event only with its WorkSession's genesis or append, which the checks above found or
    -- inserted and hold locked: the WorkSession row exists (V14 drops the foreign key for this).
    IF w_kind IS NULL OR w_kind NOT IN ('GENESIS', 'APPEND') THEN
      RAISE EXCEPTION 'an event without its WorkSession''s genesis or append';
    END IF;
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
