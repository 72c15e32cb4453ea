CREATE TABLE "storage_purges" (
	"key" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "export_runs" ADD COLUMN "withdrawn_at" timestamp with time zone;