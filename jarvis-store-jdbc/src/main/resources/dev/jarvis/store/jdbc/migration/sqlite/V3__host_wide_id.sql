-- Ids of WorkSession records are unique per kind across the host (docs/host.md, "Id scope"). The host
-- checks before it records an id, but host instances sharing this database can both pass that check
-- in a race; this table's primary key makes the database the judge. JdbcHostStores.commit inserts
-- (kind, id) for the record's WorkSession in the same transaction as the record, and a row held by
-- another WorkSession makes the whole commit a CONFLICT, which the host answers as the id's reuse.
CREATE TABLE host_wide_id (
  kind            TEXT NOT NULL,
  id              TEXT NOT NULL,
  work_session_id TEXT NOT NULL,
  PRIMARY KEY (kind, id)
);

-- Ids recorded before this migration: the first WorkSession to record one holds it. A WorkSession
-- that also recorded it through the race before this table existed keeps its record and may update
-- it (JdbcHostStores checks protocol_record for that case); no further WorkSession can take the id.
INSERT INTO host_wide_id (kind, id, work_session_id)
SELECT p.kind, p.id, p.work_session_id
FROM protocol_record p
WHERE p.work_session_id <> ''
  AND p.write_order = (
    SELECT min(q.write_order) FROM protocol_record q
    WHERE q.kind = p.kind AND q.id = p.id AND q.work_session_id <> '');
