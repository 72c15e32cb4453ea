ALTER TABLE "decisions" ADD COLUMN "changed_xid" "xid8";--> statement-breakpoint
-- A decision's change is marked on its own row (the export reads both): a release of 10,000 no longer writes 10,000 applications.
DROP TRIGGER decisions_mark_application_changed ON decisions;--> statement-breakpoint
ALTER TABLE "decisions" ALTER COLUMN "changed_xid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
CREATE FUNCTION decisions_mark_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_xid := pg_current_xact_id();
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER decisions_mark_changed BEFORE UPDATE ON decisions FOR EACH ROW EXECUTE FUNCTION decisions_mark_changed();--> statement-breakpoint
-- A decision removed leaves no row to read: its application is marked instead (rare).
CREATE OR REPLACE FUNCTION decisions_mark_application_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE applications SET changed_xid = pg_current_xact_id() WHERE user_id = OLD.user_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER decisions_mark_application_changed AFTER DELETE ON decisions FOR EACH ROW EXECUTE FUNCTION decisions_mark_application_changed();
