ALTER TABLE "recommenders" ADD COLUMN "waived" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Requests made before the column: the answer as it stands is the best record of what they were told.
UPDATE "recommenders" r SET "waived" = true FROM "applications" a WHERE a."user_id" = r."user_id" AND a."answer"->>'counselor_waiver_request' = 'Y';
