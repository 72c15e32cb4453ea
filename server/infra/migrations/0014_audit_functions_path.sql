-- The audit log's trigger functions run as whoever inserts; a role that may create schemas (the
-- runtime role may: the job queue makes its own) could put a function or table of the same name
-- ahead of public on its search path. Each one resolves names in public only (issue 29, item 7).
ALTER FUNCTION audit_log_read_only() SET search_path = public, pg_temp;--> statement-breakpoint
ALTER FUNCTION audit_log_chain() SET search_path = public, pg_temp;--> statement-breakpoint
ALTER FUNCTION audit_log_entry_hash(text, audit_log) SET search_path = public, pg_temp;
