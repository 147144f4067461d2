-- jarvis_commit names every table with the schema it was migrated into; its own search_path is fixed
-- too, so that nothing it calls (operators, functions) can be resolved through a caller's search_path
-- to an object another role created (PostgreSQL's advice for functions: "Writing SECURITY DEFINER
-- Functions Safely" applies to any function a host's connections call).
ALTER FUNCTION "${flyway:defaultSchema}".jarvis_commit SET search_path = pg_catalog, pg_temp;
