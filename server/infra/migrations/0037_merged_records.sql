ALTER TABLE "applications" ADD COLUMN "merged_into" uuid;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "merged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "merged_reason" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "merged_by" text;--> statement-breakpoint
-- A merge (or its reversal) is a change the export carries (merged_into).
DROP TRIGGER applications_mark_changed ON applications;--> statement-breakpoint
CREATE TRIGGER applications_mark_changed BEFORE UPDATE OF status, submitted_at, checklist_missing, bin_id, withdrawn_at, merged_into ON applications FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.submitted_at IS DISTINCT FROM NEW.submitted_at OR OLD.checklist_missing IS DISTINCT FROM NEW.checklist_missing OR OLD.bin_id IS DISTINCT FROM NEW.bin_id OR OLD.withdrawn_at IS DISTINCT FROM NEW.withdrawn_at OR OLD.merged_into IS DISTINCT FROM NEW.merged_into)
  EXECUTE FUNCTION applications_mark_changed();
