/**
 * An export run that carried an applicant since erased is withdrawn (issue 49): its file and its
 * documents' zip are queued for removal in the erasure's transaction, the run says why, and no
 * one downloads it again (410). The run's record (who it carried, by id) stays: it is the record
 * of a disclosure.
 */
import { and, inArray, isNull } from 'drizzle-orm';
import { queuePurges } from '../infra/purge';
import { clock } from '../infra/clock';
import type { Db } from '../infra/db';
import { exportRunApplicants, exportRuns } from '../infra/schema';
import { bundleKeyOf } from './run';

export const WITHDRAWN_MESSAGE = 'Withdrawn: it carried an applicant whose records were erased since. Run the template again for a file without them.';

/**
 * Every key a run's files may have: the parts first, then the final names, so a run publishing at
 * the same moment (a part renamed to its final name) is removed whichever comes first.
 */
const runFileKeys = (fileKey: string): string[] => {
  const finals = [fileKey, bundleKeyOf(fileKey)];
  return [...finals.map((key) => `${key}.part`), ...finals];
};

/**
 * Withdraws, in the caller's transaction, the runs that carried any of `userIds` and still have
 * files; answers them. Each run's row is locked first, so a run committing its success at the
 * same moment is seen succeeded here (or sees the erasure at its own commit, `erasedCarried` in run.ts).
 */
export async function withdrawRunsCarrying(tx: Db, userIds: readonly string[]): Promise<{ id: number; templateName: string }[]> {
  if (userIds.length === 0) return [];
  const carrying = tx.select({ runId: exportRunApplicants.runId }).from(exportRunApplicants).where(inArray(exportRunApplicants.userId, [...userIds]));
  const runs = await tx
    .select({ id: exportRuns.id, templateName: exportRuns.templateName, fileKey: exportRuns.fileKey })
    .from(exportRuns)
    .where(and(inArray(exportRuns.id, carrying), isNull(exportRuns.withdrawnAt)))
    .for('update');
  const withFiles = runs.filter((run) => run.fileKey !== null);
  if (withFiles.length === 0) return [];
  await tx
    .update(exportRuns)
    .set({ withdrawnAt: clock.now(), message: WITHDRAWN_MESSAGE })
    .where(inArray(exportRuns.id, withFiles.map((run) => run.id)));
  await queuePurges(tx, withFiles.flatMap((run) => runFileKeys(run.fileKey!)), 'export run withdrawn: it carried an erased applicant');
  return withFiles.map(({ id, templateName }) => ({ id, templateName }));
}
