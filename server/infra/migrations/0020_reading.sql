CREATE TABLE "assignments" (
	"user_id" uuid NOT NULL,
	"staff_id" uuid NOT NULL,
	"assigned_by_email" text NOT NULL,
	"assigned_at" timestamp with time zone NOT NULL,
	"reviewed_at" timestamp with time zone,
	CONSTRAINT "assignments_staff_id_user_id_pk" PRIMARY KEY("staff_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "bins" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"blind" boolean DEFAULT false NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "bins_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "review_forms" (
	"version" serial PRIMARY KEY NOT NULL,
	"definition" jsonb NOT NULL,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"staff_id" uuid,
	"reviewer_email" text NOT NULL,
	"bin_name" text,
	"form_version" integer NOT NULL,
	"ratings" jsonb NOT NULL,
	"recommendation" text NOT NULL,
	"comment" text NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"signature" text NOT NULL,
	CONSTRAINT "reviews_one_per_reader" UNIQUE("user_id","staff_id")
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "bin_id" integer;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assignments_user" ON "assignments" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "reviews_user" ON "reviews" USING btree ("user_id","id");--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_bin_id_bins_id_fk" FOREIGN KEY ("bin_id") REFERENCES "public"."bins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "applications_bin" ON "applications" USING btree ("bin_id");--> statement-breakpoint
-- The workflow stages a new office starts with (issue 30); an administrator renames, adds and removes them.
INSERT INTO "bins" ("name", "blind", "position") VALUES ('Awaiting materials', false, 1), ('First read', false, 2), ('Second read', true, 3), ('Committee', false, 4), ('Decided', false, 5);
