-- Each entry term's reply date and deposit line (issue 51 §2): a Fall 2028 admit was told May 1, 2027.
CREATE TABLE "reply_dates" (
	"entry_term" text PRIMARY KEY NOT NULL,
	"reply_by" text NOT NULL,
	"deposit" text,
	"updated_by_email" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
