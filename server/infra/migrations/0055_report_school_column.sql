-- The high school as a narrow column for the reports (issue 51 §1), as major and place are (0033).
-- Rewrites the table once (a stored generated column): seconds at 100,000 applications.
ALTER TABLE "applications" ADD COLUMN "school" text GENERATED ALWAYS AS (nullif(answer->>'hs_name', '')) STORED;