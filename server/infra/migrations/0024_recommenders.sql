CREATE TABLE "recommenders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"answers" jsonb,
	"sent_at" timestamp with time zone NOT NULL,
	"opened_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	CONSTRAINT "recommenders_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "materials" ADD COLUMN "source" text DEFAULT 'staff' NOT NULL;--> statement-breakpoint
ALTER TABLE "materials" ADD COLUMN "recommender_id" uuid;--> statement-breakpoint
ALTER TABLE "recommenders" ADD CONSTRAINT "recommenders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recommenders_user" ON "recommenders" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "materials" ADD CONSTRAINT "materials_recommender_id_recommenders_id_fk" FOREIGN KEY ("recommender_id") REFERENCES "public"."recommenders"("id") ON DELETE set null ON UPDATE no action;