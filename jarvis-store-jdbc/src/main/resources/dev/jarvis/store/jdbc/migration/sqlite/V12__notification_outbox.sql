-- Notifications that a Request waits (issue 35 item 2, docs/notifications.md). One row per
-- notification, inserted in the unit of work of its event (no round trip of its own on PostgreSQL:
-- the same statement as jarvis_commit), removed once delivered, kept as a dead letter
-- (dead_at_micros set) once given up. Times are the dispatcher's clock in microseconds since the
-- epoch. A lease (lease_owner, lease_until_micros) makes each row one host instance's at a time.
-- V11 is left to another change.
CREATE TABLE jarvis_notification_outbox (
  id                  text    NOT NULL PRIMARY KEY,
  notification        text    NOT NULL,
  next_attempt_micros bigint  NOT NULL,
  attempts            integer NOT NULL DEFAULT 0,
  lease_owner         text,
  lease_until_micros  bigint  NOT NULL DEFAULT 0,
  last_error          text    NOT NULL DEFAULT '',
  dead_at_micros      bigint
);
-- The dispatcher's query: the rows due, earliest first.
CREATE INDEX jarvis_notification_outbox_due
  ON jarvis_notification_outbox (next_attempt_micros) WHERE dead_at_micros IS NULL;
-- The operator's list of dead letters.
CREATE INDEX jarvis_notification_outbox_dead
  ON jarvis_notification_outbox (dead_at_micros) WHERE dead_at_micros IS NOT NULL;
