-- The committee's scores (issue 51 §1): the composite formula's versions, and each reviewed
-- application's tally and composite, kept so the list sorts on an index.
CREATE TABLE "application_scores" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"reviews" integer NOT NULL,
	"means" jsonb NOT NULL,
	"recommendations" jsonb NOT NULL,
	"composite" double precision,
	"parts" jsonb NOT NULL,
	"reason" text,
	"formula_version" integer NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "composite_formulas" (
	"version" serial PRIMARY KEY NOT NULL,
	"definition" jsonb NOT NULL,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "application_scores" ADD CONSTRAINT "application_scores_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "application_scores_composite" ON "application_scores" USING btree ("composite" desc nulls last,"user_id" desc);--> statement-breakpoint
CREATE INDEX "application_scores_formula" ON "application_scores" USING btree ("formula_version");--> statement-breakpoint
-- The applications reviewed before this migration get their tally (the same sums as
-- domain/scores.ts tallyOf); there is no formula yet, so no composite.
WITH counted AS (SELECT user_id, count(*)::int AS n FROM reviews GROUP BY user_id),
recommended AS (
  SELECT user_id, jsonb_object_agg(recommendation, c) AS recommendations
  FROM (SELECT user_id, recommendation, count(*)::int AS c FROM reviews GROUP BY user_id, recommendation) per_recommendation
  GROUP BY user_id
),
meant AS (
  SELECT user_id, jsonb_object_agg(scale, mean) AS means
  FROM (SELECT r.user_id, e->>'scale' AS scale, avg((e->>'rating')::numeric)::float8 AS mean FROM reviews r, jsonb_array_elements(r.ratings) e GROUP BY r.user_id, e->>'scale') per_scale
  GROUP BY user_id
)
INSERT INTO "application_scores" ("user_id", "reviews", "means", "recommendations", "composite", "parts", "reason", "formula_version", "computed_at")
SELECT counted.user_id, counted.n, coalesce(meant.means, '{}'::jsonb), recommended.recommendations, NULL, '[]'::jsonb, 'No composite score yet: an administrator defines its formula.', 0, now()
FROM counted JOIN recommended USING (user_id) LEFT JOIN meant USING (user_id);
