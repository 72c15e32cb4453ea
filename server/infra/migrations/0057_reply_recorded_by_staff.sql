-- A reply a member recorded or corrected (issue 51 §2): who, and why. Two nullable columns, no rewrite.
ALTER TABLE "decisions" ADD COLUMN "reply_recorded_by" text;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "reply_reason" text;