import { and, asc, desc, eq, gt, lt, sql } from 'drizzle-orm';
import { compositeFormulaErrors, compositeOf, tallyOf, type CompositeFormulaDefinition, type ReviewTally } from '../../domain/scores';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import { HttpError } from '../http/errors';
import { clock } from '../infra/clock';
import type { Db } from '../infra/db';
import type { Jobs } from '../infra/jobs';
import { Pacer } from '../infra/pace';
import { applicationScores, applications, compositeFormulas, reviews } from '../infra/schema';
import { recordAudit } from '../office/audit';
import { staffCall } from '../office/sessions';
import { currentReviewForm } from './reviewForm';

type CompositeFormula = components['schemas']['CompositeFormula'];
type ScoreSummary = components['schemas']['ScoreSummary'];
type ApplicationScores = components['schemas']['ApplicationScores'];

interface Formula {
  version: number;
  definition: CompositeFormulaDefinition;
  by: string | null;
  at: Date | null;
}

/** The cycle's formula: the newest version, or version 0 with no terms before an administrator defines one. */
async function currentCompositeFormula(db: Db): Promise<Formula> {
  const [row] = await db.select().from(compositeFormulas).orderBy(desc(compositeFormulas.version)).limit(1);
  if (!row) return { version: 0, definition: { terms: [] }, by: null, at: null };
  return { version: row.version, definition: row.definition, by: row.createdByEmail, at: row.createdAt };
}

const asContract = (formula: Formula): CompositeFormula => ({
  version: formula.version,
  terms: formula.definition.terms,
  updated_by: formula.by,
  updated_at: formula.at?.toISOString() ?? null,
});

/** The answers a formula reads: GPA and its scale, not the whole application (issue 52: flat memory). */
const numericAnswers = sql<Record<string, unknown>>`jsonb_build_object('hs_gpa', ${applications.answer}->'hs_gpa', 'gpa_scale', ${applications.answer}->'gpa_scale', 'gpa_scale_other', ${applications.answer}->'gpa_scale_other')`;

type ScoreRow = typeof applicationScores.$inferInsert;

function scoreRowOf(userId: string, tally: ReviewTally, answer: Record<string, unknown>, formula: Formula, at: Date): ScoreRow {
  const composite = compositeOf(formula.definition, tally, answer);
  return {
    userId,
    reviews: tally.reviews,
    means: tally.means,
    recommendations: tally.recommendations,
    composite: composite.score,
    parts: composite.parts,
    reason: composite.reason,
    formulaVersion: formula.version,
    computedAt: at,
  };
}

/** Writes rows, each replacing what an application had. */
async function writeScores(db: Db, rows: ScoreRow[]): Promise<void> {
  if (!rows.length) return;
  await db
    .insert(applicationScores)
    .values(rows)
    .onConflictDoUpdate({
      target: applicationScores.userId,
      set: {
        reviews: sql`excluded.reviews`,
        means: sql`excluded.means`,
        recommendations: sql`excluded.recommendations`,
        composite: sql`excluded.composite`,
        parts: sql`excluded.parts`,
        reason: sql`excluded.reason`,
        formulaVersion: sql`excluded.formula_version`,
        computedAt: sql`excluded.computed_at`,
      },
    });
}

/**
 * Adds up an application's reviews again and computes its composite, in the caller's transaction:
 * a review signed, an answer corrected. An application without a review has no row.
 */
export async function recomputeScores(tx: Db, userId: string): Promise<ScoreRow | null> {
  const signed = await tx.select({ ratings: reviews.ratings, recommendation: reviews.recommendation }).from(reviews).where(eq(reviews.userId, userId));
  if (!signed.length) return null;
  const [[row], formula] = await Promise.all([tx.select({ answer: numericAnswers }).from(applications).where(eq(applications.userId, userId)), currentCompositeFormula(tx)]);
  const scores = scoreRowOf(userId, tallyOf(signed), row?.answer ?? {}, formula, clock.now());
  await writeScores(tx, [scores]);
  return scores;
}

/** A score row as an application shows it, the means in the review form's order. */
export const applicationScoresFrom = (row: ScoreRow, scaleOrder: readonly string[]): ApplicationScores => ({
  ...scoreSummaryOf(row, scaleOrder),
  formula_version: row.formulaVersion,
  parts: row.parts,
  reason: row.reason ?? null,
});

/**
 * Applications recomputed at once after a change of formula: short slices, so a list read or a save
 * that meets one waits little, each followed by its pause (bench: the list's p99 beside the job).
 */
const BATCH = 100;

/** A batch's new composites written over the old ones: the tallies it read are not written again. */
async function writeComposites(db: Db, rows: ScoreRow[]): Promise<void> {
  if (!rows.length) return;
  const values = sql.join(
    rows.map((row) => sql`(${row.userId}::uuid, ${row.composite ?? null}::float8, ${JSON.stringify(row.parts)}::jsonb, ${row.reason ?? null}::text, ${row.formulaVersion}::int, ${row.computedAt!.toISOString()}::timestamptz)`),
    sql`, `,
  );
  await db.execute(sql`
    update ${applicationScores} s
    set composite = v.composite, parts = v.parts, reason = v.reason, formula_version = v.formula_version, computed_at = v.computed_at
    from (values ${values}) as v(user_id, composite, parts, reason, formula_version, computed_at)
    where s.user_id = v.user_id`);
}

/**
 * Every reviewed application's composite computed again on the newest formula: those computed on
 * an older version, BATCH at a time in id order, paced beside the saves (decision 0039). A kill
 * leaves the rest on their old version; the stuck-job sweep sends the job again.
 */
async function recomputeAllScores(db: Db, pacer = new Pacer()): Promise<number> {
  const formula = await currentCompositeFormula(db);
  let after = '00000000-0000-0000-0000-000000000000';
  let done = 0;
  for (;;) {
    const batch = await db
      .select({ userId: applicationScores.userId, reviews: applicationScores.reviews, means: applicationScores.means, recommendations: applicationScores.recommendations, answer: numericAnswers })
      .from(applicationScores)
      .innerJoin(applications, eq(applications.userId, applicationScores.userId))
      .where(and(lt(applicationScores.formulaVersion, formula.version), gt(applicationScores.userId, after)))
      .orderBy(asc(applicationScores.userId))
      .limit(BATCH);
    const at = clock.now();
    await writeComposites(
      db,
      batch.map((row) => scoreRowOf(row.userId, { reviews: row.reviews, means: row.means, recommendations: row.recommendations }, row.answer, formula, at)),
    );
    done += batch.length;
    if (batch.length < BATCH) return done;
    after = batch.at(-1)!.userId;
    await pacer.breathe();
  }
}

export async function registerScoresWorker(jobs: Jobs, db: Db): Promise<void> {
  await jobs.work('scores-recompute', () => recomputeAllScores(db).then(() => undefined));
}

/** A score row as the list shows it: means in the review form's order (scales no longer on it after), recommendations most first. */
export function scoreSummaryOf(row: Pick<ScoreRow, 'reviews' | 'means' | 'recommendations' | 'composite'> | null, scaleOrder: readonly string[]): ScoreSummary {
  if (!row) return { reviews: 0, means: [], recommendations: [], composite: null };
  const rank = (scale: string) => (scaleOrder.includes(scale) ? scaleOrder.indexOf(scale) : scaleOrder.length);
  return {
    reviews: row.reviews,
    means: Object.entries(row.means)
      .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
      .map(([scale, mean]) => ({ scale, mean })),
    recommendations: Object.entries(row.recommendations)
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
      .map(([recommendation, count]) => ({ recommendation, count })),
    composite: row.composite ?? null,
  };
}

/** An application's scores with how its composite was computed; before its first review, the formula's parts with nothing read. */
export async function applicationScoresOf(db: Db, userId: string): Promise<ApplicationScores> {
  const [[row], form, formula] = await Promise.all([db.select().from(applicationScores).where(eq(applicationScores.userId, userId)), currentReviewForm(db), currentCompositeFormula(db)]);
  const order = form.scales.map((scale) => scale.name);
  if (!row) {
    const none = compositeOf(formula.definition, tallyOf([]), {});
    return { ...scoreSummaryOf(null, order), formula_version: formula.version, parts: none.parts, reason: none.reason };
  }
  return applicationScoresFrom(row, order);
}

/** The scales' order of the review form in force, for the list's means. */
export const scaleOrderOf = async (db: Db) => (await currentReviewForm(db)).scales.map((scale) => scale.name);

export function scoreHandlers(deps: { db: Db; jobs: Jobs }) {
  const { db } = deps;
  return {
    // The formula only, no applicant's data: not in the audit log.
    getCompositeFormula: staffCall<'getCompositeFormula'>('reader', async (_request, reply) => reply.code(200).send(asContract(await currentCompositeFormula(db)))),

    setCompositeFormula: staffCall<'setCompositeFormula'>('admin', async (request, reply, staff) => {
      const definition: CompositeFormulaDefinition = { terms: request.body.terms.map((term) => ({ source: term.source, name: term.name.trim(), weight: term.weight })) };
      const errors = compositeFormulaErrors(definition, await currentReviewForm(db));
      if (Object.keys(errors).length) throw new HttpError(400, Object.values(errors)[0]![0]!, { errors });
      const version = await db.transaction(async (tx) => {
        const [row] = await tx.insert(compositeFormulas).values({ definition, createdByEmail: staff.email, createdAt: clock.now() }).returning({ version: compositeFormulas.version });
        await recordAudit(tx, {
          staff: { id: staff.staffId, email: staff.email },
          action: 'composite_formula_change',
          detail: { version: row!.version, terms: definition.terms.map((term) => `${term.weight} × ${term.source}:${term.name}`) },
          ip: request.ip,
        });
        return row!.version;
      });
      await deps.jobs.send('scores-recompute', { version: String(version) });
      return reply.code(200).send(asContract(await currentCompositeFormula(db)));
    }),
  } satisfies Handlers;
}
