CREATE TABLE "checklist_marks" (
	"user_id" uuid NOT NULL,
	"item_key" text NOT NULL,
	"status" text NOT NULL,
	"by_email" text NOT NULL,
	"reason" text,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "checklist_marks_user_id_item_key_pk" PRIMARY KEY("user_id","item_key")
);
--> statement-breakpoint
ALTER TABLE "checklist_marks" ADD CONSTRAINT "checklist_marks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;