CREATE TABLE "staff_removals" (
	"email" text PRIMARY KEY NOT NULL,
	"removed_by_email" text NOT NULL,
	"removed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "via_provider" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Members the provider made before: no password and no second factor of their own.
UPDATE "staff_users" SET "via_provider" = true WHERE "password_hash" IS NULL AND "totp_secret" = '' AND "activated_at" IS NOT NULL;
