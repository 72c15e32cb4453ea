DROP INDEX "decisions_notice_due";--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "notice_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "notice_sent_for" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "message_id" text;--> statement-breakpoint
-- Every notice claimed before this migration was sent or given up at the time: none is sent again.
UPDATE "decisions" SET "notice_sent_for" = "notice_for" WHERE "notice_for" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "decisions_notice_unsent" ON "decisions" USING btree ("release_at") WHERE notice_sent_for is distinct from release_at;