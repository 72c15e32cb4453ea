ALTER TABLE "applications" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "withdrawn_reason" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "withdrawn_by" text;--> statement-breakpoint
-- A withdrawal (or its reversal) is a change the export carries.
DROP TRIGGER applications_mark_changed ON applications;--> statement-breakpoint
CREATE TRIGGER applications_mark_changed BEFORE UPDATE OF status, submitted_at, checklist_missing, bin_id, withdrawn_at ON applications FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.submitted_at IS DISTINCT FROM NEW.submitted_at OR OLD.checklist_missing IS DISTINCT FROM NEW.checklist_missing OR OLD.bin_id IS DISTINCT FROM NEW.bin_id OR OLD.withdrawn_at IS DISTINCT FROM NEW.withdrawn_at)
  EXECUTE FUNCTION applications_mark_changed();
