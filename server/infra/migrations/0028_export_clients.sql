CREATE TABLE "export_clients" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"key_hash" text NOT NULL,
	"template_ids" integer[] NOT NULL,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "export_clients_name_unique" UNIQUE("name"),
	CONSTRAINT "export_clients_key_hash_unique" UNIQUE("key_hash")
);
