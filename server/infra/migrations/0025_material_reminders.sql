CREATE TABLE "material_reminders" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"off" boolean DEFAULT false NOT NULL,
	"last_sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "material_reminders" ADD CONSTRAINT "material_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;