-- An erased applicant's identifying text leaves the audit log; the entries stay (issue 49, item 11).
-- The entries they are named in keep their place, time, action and chain columns; their e-mail and
-- name in `staff_email` and `detail` become `applicant:<id>`. Each such entry is listed here, and
-- `npm run audit:verify` checks the chain through it without recomputing its changed content.
CREATE TABLE audit_redactions (
  entry_id bigint PRIMARY KEY,
  redacted_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- The read-only trigger lets one kind of update through: a redaction's, inside audit_log_redact
-- (it sets portal.audit_redaction for its own transaction), changing only the identifying text.
CREATE OR REPLACE FUNCTION audit_log_read_only() RETURNS trigger LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('portal.audit_redaction', true) = 'on'
     AND NEW.id = OLD.id AND NEW.at = OLD.at AND NEW.action = OLD.action AND NEW.ip = OLD.ip
     AND NEW.staff_id IS NOT DISTINCT FROM OLD.staff_id AND NEW.application_id IS NOT DISTINCT FROM OLD.application_id
     AND NEW.hash IS NOT DISTINCT FROM OLD.hash AND NEW.prev_hash IS NOT DISTINCT FROM OLD.prev_hash THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only';
END $$;
--> statement-breakpoint
-- Runs as the tables' owner (the runtime role may not update the log): replaces each of `needles`
-- (the person's e-mail and names) with `replacement` in the entries on the application and those
-- written in the person's name (a decision's reply). Answers how many entries changed.
CREATE FUNCTION audit_log_redact(application uuid, needles text[], replacement text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  r audit_log;
  body text;
  author text;
  needle text;
  changed integer := 0;
BEGIN
  PERFORM set_config('portal.audit_redaction', 'on', true);
  FOR r IN SELECT * FROM audit_log WHERE application_id = application OR staff_email = ANY (needles) LOOP
    body := coalesce(r.detail::text, '');
    author := r.staff_email;
    FOREACH needle IN ARRAY needles LOOP
      IF length(needle) > 0 THEN
        -- The needle as it is written inside a JSON string (quotes and backslashes escaped).
        body := replace(body, substr(to_jsonb(needle)::text, 2, length(to_jsonb(needle)::text) - 2), replacement);
        IF author = needle THEN author := replacement; END IF;
      END IF;
    END LOOP;
    IF body IS DISTINCT FROM coalesce(r.detail::text, '') OR author <> r.staff_email THEN
      UPDATE audit_log SET detail = CASE WHEN r.detail IS NULL THEN NULL ELSE body::jsonb END, staff_email = author WHERE id = r.id;
      INSERT INTO audit_redactions (entry_id) VALUES (r.id) ON CONFLICT DO NOTHING;
      changed := changed + 1;
    END IF;
  END LOOP;
  PERFORM set_config('portal.audit_redaction', 'off', true);
  RETURN changed;
END $$;
