CREATE TABLE "letter_templates" (
	"decision" text PRIMARY KEY NOT NULL,
	"body" text NOT NULL,
	"updated_by_email" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
