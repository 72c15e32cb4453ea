CREATE TABLE "checklist_rules" (
	"version" serial PRIMARY KEY NOT NULL,
	"definition" jsonb NOT NULL,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
