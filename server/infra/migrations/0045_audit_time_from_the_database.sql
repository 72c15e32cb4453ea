-- An entry's time is the database's, never the row's (issue 49, item 11): the runtime role could
-- insert an entry dated 2020-01-01, chained and verified intact. The trigger sets `at` to the
-- transaction's time (what the column's default gave every entry the app wrote) before hashing.
CREATE OR REPLACE FUNCTION audit_log_chain() RETURNS trigger LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7301291);
  NEW.at := now();
  NEW.id := nextval(pg_get_serial_sequence('audit_log', 'id'));
  NEW.prev_hash := (SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1);
  NEW.hash := audit_log_entry_hash(NEW.prev_hash, NEW);
  RETURN NEW;
END $$;
