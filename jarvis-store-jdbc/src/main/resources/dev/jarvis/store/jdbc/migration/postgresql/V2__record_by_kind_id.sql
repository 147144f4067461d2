-- "The WorkSession holding a record of this kind and id" (RecordStore.findInAnyWorkSession): the host
-- keeps record ids unique per kind across its WorkSessions and asks this before recording an id.
CREATE INDEX protocol_record_by_kind_id ON protocol_record (kind, id);
