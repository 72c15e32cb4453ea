/**
 * Templates that run by themselves (issue 32): every minute each process looks for a template
 * whose due instant has passed since its last scheduled run, claims that instant with a
 * conditional update (so one process makes the run, however many look), and queues the run.
 */
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { dueInstant } from '../../domain/exportTemplates';
import { clock } from '../infra/clock';
import type { Db } from '../infra/db';
import type { Jobs } from '../infra/jobs';
import { exportTemplates } from '../infra/schema';
import { createRun } from './run';

/** Who a scheduled run is by, in the runs' list and the audit log. */
export const SCHEDULE_ACTOR = 'schedule';

/** Makes the runs now due; answers their ids. */
export async function startDueExports(deps: { db: Db; jobs: Jobs }): Promise<number[]> {
  const now = clock.now();
  const scheduled = await deps.db
    .select({ id: exportTemplates.id, definition: exportTemplates.definition })
    .from(exportTemplates)
    .where(sql`${exportTemplates.definition} -> 'schedule' ->> 'every' <> 'never'`);
  const started: number[] = [];
  for (const template of scheduled) {
    const due = dueInstant(template.definition.schedule, now);
    if (!due) continue;
    const [claimed] = await deps.db
      .update(exportTemplates)
      .set({ scheduledFor: due })
      .where(and(eq(exportTemplates.id, template.id), or(isNull(exportTemplates.scheduledFor), lt(exportTemplates.scheduledFor, due))))
      .returning({ id: exportTemplates.id });
    if (!claimed) continue;
    const run = await createRun(deps.db, template.id, 'changes', SCHEDULE_ACTOR);
    if (!run) continue;
    await deps.jobs.send('export-run', { run: String(run.id) });
    started.push(run.id);
  }
  return started;
}

/** Looks every minute; stopped by the function it answers. */
export function exportScheduleNowAndThen(deps: { db: Db; jobs: Jobs; log: (error: unknown, message: string) => void }): () => void {
  const sweep = () => void startDueExports(deps).catch((error: unknown) => deps.log(error, 'scheduled exports failed'));
  sweep();
  const timer = setInterval(sweep, 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
