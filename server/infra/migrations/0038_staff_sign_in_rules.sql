CREATE TABLE "staff_sign_in_rules" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"domains" text[] NOT NULL,
	"role_claim" text NOT NULL,
	"role_mappings" jsonb NOT NULL,
	"updated_by_email" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
