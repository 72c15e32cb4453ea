CREATE TABLE "retention_rules" (
	"term" text PRIMARY KEY NOT NULL,
	"delete_after" text NOT NULL,
	"updated_by_email" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
