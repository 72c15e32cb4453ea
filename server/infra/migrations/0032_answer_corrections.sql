CREATE TABLE "answer_corrections" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"from_value" jsonb,
	"to_value" jsonb,
	"reason" text NOT NULL,
	"by_email" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "answer_corrections" ADD CONSTRAINT "answer_corrections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "answer_corrections_user" ON "answer_corrections" USING btree ("user_id","id");