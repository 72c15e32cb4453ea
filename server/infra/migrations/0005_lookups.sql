CREATE TABLE "lookup_records" (
	"category" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"ceeb" text,
	"city" text,
	"state" text,
	"state_code" text,
	"zip" text,
	"country" text,
	"active" boolean DEFAULT true NOT NULL,
	"search_name" text NOT NULL,
	"search_text" text NOT NULL,
	CONSTRAINT "lookup_records_category_id_pk" PRIMARY KEY("category","id")
);
--> statement-breakpoint
CREATE TABLE "lookup_sources" (
	"category" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"row_count" integer NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "lookup_records_words" ON "lookup_records" USING gin (to_tsvector('simple', "search_text"));--> statement-breakpoint
CREATE INDEX "lookup_records_name_prefix" ON "lookup_records" USING btree ("category","search_name" text_pattern_ops);