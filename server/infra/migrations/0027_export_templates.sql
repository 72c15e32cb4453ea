CREATE TABLE "export_run_applicants" (
	"run_id" integer NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "export_run_applicants_run_id_user_id_pk" PRIMARY KEY("run_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "export_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"template_id" integer,
	"template_name" text NOT NULL,
	"format" text NOT NULL,
	"mode" text NOT NULL,
	"status" text NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"from_xid" "xid8",
	"to_xid" "xid8",
	"started_by" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"rows" integer,
	"bytes" bigint,
	"file_key" text,
	"file_name" text,
	"unmapped" jsonb,
	"message" text
);
--> statement-breakpoint
CREATE TABLE "export_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"definition" jsonb NOT NULL,
	"cursor_xid" "xid8",
	"cursor_at" timestamp with time zone,
	"updated_by_email" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "export_templates_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "changed_xid" "xid8";--> statement-breakpoint
ALTER TABLE "export_run_applicants" ADD CONSTRAINT "export_run_applicants_run_id_export_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."export_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_runs" ADD CONSTRAINT "export_runs_template_id_export_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."export_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "export_run_applicants_user" ON "export_run_applicants" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "export_runs_template" ON "export_runs" USING btree ("template_id","id");--> statement-breakpoint
-- A new application row is a change; existing rows stay null (no table rewrite): the first run of a template takes them all.
ALTER TABLE "applications" ALTER COLUMN "changed_xid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
-- What an export carries, changed outside a save (a save sets changed_xid in its own UPDATE, with no trigger: decision 0015).
CREATE FUNCTION applications_mark_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_xid := pg_current_xact_id();
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER applications_mark_changed BEFORE UPDATE OF status, submitted_at, checklist_missing, bin_id ON applications FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.submitted_at IS DISTINCT FROM NEW.submitted_at OR OLD.checklist_missing IS DISTINCT FROM NEW.checklist_missing OR OLD.bin_id IS DISTINCT FROM NEW.bin_id)
  EXECUTE FUNCTION applications_mark_changed();--> statement-breakpoint
-- A decision made, changed, released (its notice claimed), answered or removed changes its application for the export.
CREATE FUNCTION decisions_mark_application_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE applications SET changed_xid = pg_current_xact_id() WHERE user_id = OLD.user_id;
  ELSE
    UPDATE applications SET changed_xid = pg_current_xact_id() WHERE user_id = NEW.user_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER decisions_mark_application_changed AFTER INSERT OR UPDATE OR DELETE ON decisions FOR EACH ROW EXECUTE FUNCTION decisions_mark_application_changed();
