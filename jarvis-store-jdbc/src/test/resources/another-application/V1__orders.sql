-- The service's own schema, as its own Flyway migrates it: tables whose names Jarvis once used too.
CREATE TABLE orders (id text PRIMARY KEY, total bigint NOT NULL);
CREATE TABLE work_session (id text PRIMARY KEY, owner text NOT NULL);
INSERT INTO orders (id, total) VALUES ('order-1', 42);
