CREATE TABLE "letter_pdfs" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"letter_hash" text NOT NULL,
	"status" text NOT NULL,
	"pdf_key" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "letter_pdfs" ADD CONSTRAINT "letter_pdfs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;