CREATE TABLE "anonymous_answers" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"answer" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "anonymous_answers_expiry" ON "anonymous_answers" USING btree ("expires_at");