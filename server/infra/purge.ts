/**
 * Files that no longer belong to anyone go in two steps (issue 49): their keys are queued in the
 * transaction that made them no one's (`queuePurges`), and removed after it commits
 * (`purgeQueued`). A process killed between the two leaves the queue, which the worker's sweep
 * empties at its start and hourly: no file outlives its record, and no record is removed without
 * its files being on their way out.
 */
import { and, inArray, lte } from 'drizzle-orm';
import { clock } from './clock';
import type { Db } from './db';
import { storagePurges } from './schema';
import type { Storage } from './storage';

/**
 * How long after an erasure an upload signed before it can still land in the applicant's folder:
 * the upload window (10 minutes) and a slow transfer's time after it. Their folders are removed
 * again then (a file landing after the first removal has no record to go with it).
 */
export const LATE_UPLOAD_MS = 60 * 60_000;

/** Queues keys (a key ending in `/` is a folder) in the caller's transaction, due now or from `notBefore`. */
export async function queuePurges(tx: Db, keys: readonly string[], reason: string, notBefore = clock.now()): Promise<void> {
  const unique = [...new Set(keys)];
  for (let i = 0; i < unique.length; i += 1000) {
    await tx
      .insert(storagePurges)
      .values(unique.slice(i, i + 1000).map((key) => ({ key, reason, notBefore })))
      .onConflictDoNothing();
  }
}

/**
 * Removes queued files that are due, then their queue entries; the given keys only, or everything
 * due. Answers how many keys went; a key whose removal failed stays queued for the next sweep, and
 * is logged.
 */
export async function purgeQueued(deps: { db: Db; storage: Storage; log?: (error: unknown, message: string) => void }, only?: readonly string[]): Promise<number> {
  const now = clock.now();
  const due = await deps.db
    .selectDistinct({ key: storagePurges.key })
    .from(storagePurges)
    .where(and(lte(storagePurges.notBefore, now), only ? inArray(storagePurges.key, [...only]) : undefined));
  const removed: string[] = [];
  for (const { key } of due) {
    try {
      await (key.endsWith('/') ? deps.storage.deleteFolder(key) : deps.storage.delete(key));
      removed.push(key);
    } catch (error) {
      deps.log?.(error, `could not remove ${key}; it stays queued`);
    }
  }
  for (let i = 0; i < removed.length; i += 1000) await deps.db.delete(storagePurges).where(and(inArray(storagePurges.key, removed.slice(i, i + 1000)), lte(storagePurges.notBefore, now)));
  return removed.length;
}

/**
 * Every folder that holds one applicant's files, whatever made them: uploads (finished or not),
 * their PDFs, materials and recommenders' letters, the PDF copy, the decision letter. Each key
 * the portal makes for an applicant starts with one of these (documents.ts, checklist.ts,
 * recommenders.ts, pdfCopy.ts, letterPdf.ts); records.test.ts erases a full record and finds no
 * file of theirs left.
 */
export const applicantFolders = (userId: string): string[] => ['uploads', 'converted', 'materials', 'copies', 'letters'].map((area) => `${area}/${userId}/`);
