-- Whether a human Worker has an Actor able to review (RecordStore.actorsOf; docs/host.md, "Who
-- governs a WorkSession") is asked before a WorkSession is opened for it. Actors are registered
-- rarely, so the member is read from the text by an expression index on Actors alone rather than
-- kept in a column of its own as V6 does for the members every append writes.
CREATE INDEX jarvis_protocol_record_actor_by_worker
  ON jarvis_protocol_record (((body::jsonb) ->> 'worker_id'), write_order)
  WHERE kind = 'ACTOR' AND work_session_id = '';
