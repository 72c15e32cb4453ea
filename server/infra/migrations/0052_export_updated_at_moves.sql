-- The export's updated_at moves with every change it carries (issue 51): a save (updated_at), and
-- since this migration a change of status, submission, checklist, bin, withdrawal or merge (the
-- trigger that marks changed_xid), a correction (its UPDATE), and a decision (its own row). Rows
-- changed before it keep a null changed_at: their updated_at is as before.
ALTER TABLE "applications" ADD COLUMN "changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "decisions" ALTER COLUMN "changed_at" SET DEFAULT now();--> statement-breakpoint
CREATE OR REPLACE FUNCTION applications_mark_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_xid := pg_current_xact_id();
  NEW.changed_at := now();
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION decisions_mark_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_xid := pg_current_xact_id();
  NEW.changed_at := now();
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION decisions_mark_application_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE applications SET changed_xid = pg_current_xact_id(), changed_at = now() WHERE user_id = OLD.user_id;
  RETURN NULL;
END $$;
