CREATE TABLE "decisions" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"decision" text NOT NULL,
	"decided_by" uuid,
	"decided_by_email" text NOT NULL,
	"decided_at" timestamp with time zone NOT NULL,
	"release_at" timestamp with time zone,
	"reason" text,
	"notice_for" timestamp with time zone,
	"reply" text,
	"replied_at" timestamp with time zone,
	CONSTRAINT "decisions_decision" CHECK ("decisions"."decision" in ('admit', 'deny', 'waitlist', 'defer'))
);
--> statement-breakpoint
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_decided_by_staff_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "decisions_release_at" ON "decisions" USING btree ("release_at");--> statement-breakpoint
CREATE INDEX "decisions_decided_at" ON "decisions" USING btree ("decided_at");