/**
 * The sweep of lost jobs: a conversion (a document, a material) or a PDF copy whose process died
 * mid-job, a recompute of composites cut off. It knows each job's row by its table and queue (as ./jobs.ts knows every queue), so
 * whichever process runs the workers runs it without reaching into an area.
 */
import { and, inArray, lt, sql } from 'drizzle-orm';
import { rowsOf, type Db } from './db';
import { STUCK_AFTER_MS, type Jobs } from './jobs';
import { applicationScores, compositeFormulas, documents, materials, pdfCopies } from './schema';

/**
 * Queues stuck jobs again now and every five minutes, in whichever process runs the workers;
 * returns the function that stops it. With the embedded database this process is the only one
 * that can have been working, so at start-up every job still in progress was cut off (a kill -9,
 * a crash) and is queued again at once rather than after STUCK_AFTER_MS.
 */
export function requeueStuckJobsNowAndThen(deps: { db: Db; jobs: Jobs }, log: (error: unknown) => void, options: { onlyProcess: boolean }): () => void {
  const requeue = (stuckAfterMs = STUCK_AFTER_MS) => void requeueStuckJobs(deps, new Date(), stuckAfterMs).catch(log);
  requeue(options.onlyProcess ? 0 : STUCK_AFTER_MS);
  const timer = setInterval(requeue, 5 * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Conversions (documents and materials) and PDF copies whose process died mid-job (kill -9, a crash) stay `in_progress`
 * forever otherwise. Each one that has not moved for STUCK_AFTER_MS is queued again; run at
 * start-up and then every few minutes by whatever runs the workers. Returns how many were queued.
 */
export async function requeueStuckJobs(deps: { db: Db; jobs: Jobs }, now = new Date(), stuckAfterMs = STUCK_AFTER_MS): Promise<number> {
  const cutoff = new Date(now.getTime() - stuckAfterMs);
  const docs = await deps.db
    .update(documents)
    .set({ updatedAt: now })
    .where(and(inArray(documents.status, ['unprocessed', 'in_progress']), lt(documents.updatedAt, cutoff)))
    .returning({ id: documents.id });
  for (const { id } of docs) await deps.jobs.send('convert-document', { documentId: id });
  // As a copy is requested (server/pdf/pdfCopy.ts): made again from the start.
  const copies = await deps.db
    .update(pdfCopies)
    .set({ status: 'UNPROCESSED', message: null, updatedAt: now })
    .where(and(inArray(pdfCopies.status, ['UNPROCESSED', 'IN_PROGRESS']), lt(pdfCopies.updatedAt, cutoff)))
    .returning({ userId: pdfCopies.userId });
  for (const { userId } of copies) await deps.jobs.send('pdf-copy', { userId });
  // Materials too, a recommender's letter among them: before, only a restart queued them again, and
  // only those already ten minutes old, so one killed lately stayed "in progress" and its link could not send again.
  const files = await deps.db
    .update(materials)
    .set({ updatedAt: now })
    .where(and(inArray(materials.status, ['unprocessed', 'in_progress']), lt(materials.updatedAt, cutoff)))
    .returning({ id: materials.id });
  for (const { id } of files) await deps.jobs.send('convert-material', { materialId: id });
  // Composites a killed recompute left on an older formula (issue 51 §1): the job finishes them.
  const [stale] = await deps.db.execute(sql`
    select exists (
      select 1 from ${applicationScores} s, (select version, created_at from ${compositeFormulas} order by version desc limit 1) f
      where s.formula_version < f.version and f.created_at < ${cutoff.toISOString()}
    ) as stale`).then(rowsOf<{ stale: boolean }>);
  if (stale?.stale) await deps.jobs.send('scores-recompute', {});
  return docs.length + copies.length + files.length + (stale?.stale ? 1 : 0);
}
