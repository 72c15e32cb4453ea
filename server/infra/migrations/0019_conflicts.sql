CREATE TABLE "conflicts" (
	"user_id" uuid NOT NULL,
	"staff_id" uuid NOT NULL,
	"reason" text,
	"declared_at" timestamp with time zone NOT NULL,
	CONSTRAINT "conflicts_staff_id_user_id_pk" PRIMARY KEY("staff_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "conflicts" ADD CONSTRAINT "conflicts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conflicts" ADD CONSTRAINT "conflicts_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;