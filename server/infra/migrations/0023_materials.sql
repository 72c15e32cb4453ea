CREATE TABLE "materials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"item_key" text NOT NULL,
	"file_key" text NOT NULL,
	"file_name" text NOT NULL,
	"file_size" integer,
	"status" text DEFAULT 'unprocessed' NOT NULL,
	"message" text,
	"pdf_key" text,
	"by_email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "checklist_missing" text[];--> statement-breakpoint
ALTER TABLE "bins" ADD COLUMN "receives_complete" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "materials" ADD CONSTRAINT "materials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "materials_user" ON "materials" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "applications_checklist_missing" ON "applications" USING gin ("checklist_missing");--> statement-breakpoint
CREATE UNIQUE INDEX "bins_one_receives_complete" ON "bins" USING btree ("receives_complete") WHERE "bins"."receives_complete";