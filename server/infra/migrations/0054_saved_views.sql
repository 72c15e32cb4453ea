-- Saved views of the applications list (issue 51 §1): a member's or the office's.
CREATE TABLE "saved_views" (
	"id" serial PRIMARY KEY NOT NULL,
	"staff_id" uuid,
	"owner_email" text NOT NULL,
	"name" text NOT NULL,
	"query" text NOT NULL,
	"columns" jsonb NOT NULL,
	"shared" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_views_name_per_member" UNIQUE("staff_id","name")
);
--> statement-breakpoint
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;