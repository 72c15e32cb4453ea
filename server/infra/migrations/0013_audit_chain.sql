ALTER TABLE "audit_log" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text;--> statement-breakpoint
-- Each entry's hash covers the one before it (issue 29, item 7): a changed, removed or reordered
-- entry breaks the chain from there on (`npm run audit:verify`). The time in microseconds since the
-- epoch, not as text: the text of a timestamptz follows the session's TimeZone.
CREATE FUNCTION audit_log_entry_hash(prev text, e audit_log) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(concat_ws(E'\x1f', coalesce(prev, ''), e.id::text, (extract(epoch FROM e.at) * 1000000)::bigint::text,
    coalesce(e.staff_id::text, ''), e.staff_email, e.action, coalesce(e.application_id::text, ''), coalesce(e.detail::text, ''), e.ip), 'UTF8')), 'hex')
$$;--> statement-breakpoint
-- One insert at a time takes the next id and the hash before it, so ids follow the chain even when
-- two transactions write at once (the lock is the transaction's: held to its commit).
CREATE FUNCTION audit_log_chain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7301291);
  NEW.id := nextval(pg_get_serial_sequence('audit_log', 'id'));
  NEW.prev_hash := (SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1);
  NEW.hash := audit_log_entry_hash(NEW.prev_hash, NEW);
  RETURN NEW;
END $$;--> statement-breakpoint
ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update;--> statement-breakpoint
DO $$
DECLARE
  r audit_log;
  prev text := NULL;
  this text;
BEGIN
  FOR r IN SELECT * FROM audit_log ORDER BY id LOOP
    this := audit_log_entry_hash(prev, r);
    UPDATE audit_log SET prev_hash = prev, hash = this WHERE id = r.id;
    prev := this;
  END LOOP;
END $$;--> statement-breakpoint
ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update;--> statement-breakpoint
CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_chain();
