-- An erased applicant's folders are removed again once every upload signed before the erasure could have landed (issue 49).
ALTER TABLE "storage_purges" DROP CONSTRAINT "storage_purges_pkey";--> statement-breakpoint
ALTER TABLE "storage_purges" ADD COLUMN "not_before" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "storage_purges" ADD CONSTRAINT "storage_purges_key_not_before_pk" PRIMARY KEY("key","not_before");
