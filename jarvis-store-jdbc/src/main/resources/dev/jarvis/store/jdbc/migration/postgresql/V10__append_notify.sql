-- Appends across host instances (issue 33, event-stream): every event committed to this schema's
-- jarvis_event sends NOTIFY with the WorkSession id as payload (never the event), from the trigger
-- below, inside the committing transaction. PostgreSQL delivers it only when that transaction
-- commits (a rolled-back or conflicting unit sends nothing) and folds repeats of one channel and
-- payload within a transaction into one. Being a trigger, it costs the unit of work no round trip:
-- jarvis_commit (V6), a unit with a step, and anything else that inserts an event all notify alike.
--
-- The channel is the schema's: 'jarvis_append_' || schema, so that instances of stores in other
-- schemas of the same database (NOTIFY channels are database-wide) never hear these appends. A
-- channel name is at most 63 bytes; a schema name too long for that is replaced by its md5 (hex),
-- which keeps schemas apart just as well. JdbcHostStores LISTENs on the same name, computed the same
-- way (PostgresAppendFeed.channel). TG_TABLE_SCHEMA is the schema the table is in now, so the channel
-- follows a renamed schema as the store's own configuration does.
CREATE FUNCTION "${flyway:defaultSchema}".jarvis_notify_append() RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
  PERFORM pg_catalog.pg_notify(
    CASE WHEN pg_catalog.octet_length(TG_TABLE_SCHEMA) <= 49
         THEN 'jarvis_append_' || TG_TABLE_SCHEMA
         ELSE 'jarvis_append_' || pg_catalog.md5(TG_TABLE_SCHEMA)
    END,
    NEW.work_session_id);
  RETURN NULL;
END
$fn$;

CREATE TRIGGER jarvis_event_notify_append
  AFTER INSERT ON jarvis_event
  FOR EACH ROW EXECUTE FUNCTION "${flyway:defaultSchema}".jarvis_notify_append();
