-- The orders service's own table, migrated by its own Flyway (history: flyway_schema_history in the
-- service's schema). Jarvis keeps its tables and its own history in the schema jarvis.host.store.schema.
CREATE TABLE orders (
  id       text    PRIMARY KEY,
  quantity integer NOT NULL
);
