/**
 * An application's checklist (what the office still needs, and the files that came for each item),
 * read by the reader, the recommenders' and the applicant's pages, and refreshed after a
 * submission, a mark or a file: the office's kit, so that none of them reaches into another area.
 */
import { and, asc, desc, eq, getTableColumns, isNotNull, isNull } from 'drizzle-orm';
import { BUILT_IN_CHECKLIST, checklistOf, movesOnCompletion, type ChecklistMark, type ChecklistRule } from '../../domain/checklist';
import type { components } from '../../generated/api';
import type { Db } from '../infra/db';
import { applications, bins, checklistMarks, checklistRules, documents, materials, recommenders } from '../infra/schema';
import { recordAudit, type AuditEntry } from './audit';

type Checklist = components['schemas']['Checklist'];
type Material = components['schemas']['Material'];
type MaterialRow = typeof materials.$inferSelect & { recommender: Pick<typeof recommenders.$inferSelect, 'name' | 'role' | 'answers'> | null };

/** Who an automatic change is recorded as: the member whose act caused it, or the portal itself. */
export type ChecklistActor = Pick<AuditEntry, 'staff' | 'ip'>;
export const PORTAL_ACTOR: ChecklistActor = { staff: { id: null, email: 'the portal' }, ip: '-' };

/** A transaction or the database: the checklist is read and written inside a mark's transaction too. */
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export const materialOf = ({ recommender, ...row }: MaterialRow): Material => ({
  id: row.id,
  file_name: row.fileName,
  status: row.status,
  message: row.message,
  by: row.byEmail,
  at: row.createdAt.toISOString(),
  recommendation: recommender?.answers ? { name: recommender.name, role: recommender.role, ...recommender.answers } : null,
});

/** An application's files, each with the recommender who sent it (if one did), oldest first. */
const materialsOf = (db: Db | Tx, userId: string): Promise<MaterialRow[]> =>
  db
    .select({ ...getTableColumns(materials), recommender: { name: recommenders.name, role: recommenders.role, answers: recommenders.answers } })
    .from(materials)
    .leftJoin(recommenders, eq(recommenders.id, materials.recommenderId))
    .where(eq(materials.userId, userId))
    .orderBy(asc(materials.createdAt), asc(materials.id))
    .then((rows) => rows.map((row) => ({ ...row, recommender: row.recommender?.name ? row.recommender : null })));

/** The rules in force: the newest an administrator set (`reader/checklistRules.ts`), or the built-in list. */
export async function currentChecklistRules(db: Db | Tx): Promise<{ version: number; rules: readonly ChecklistRule[]; by: string | null; at: Date | null }> {
  const [row] = await db.select().from(checklistRules).orderBy(desc(checklistRules.version)).limit(1);
  return row ? { version: row.version, rules: row.definition, by: row.createdByEmail, at: row.createdAt } : { version: 0, rules: BUILT_IN_CHECKLIST, by: null, at: null };
}

/** Everything the checklist is computed from, for one application. */
async function checklistInputs(db: Db | Tx, userId: string) {
  const [marks, docs, files, current] = await Promise.all([
    db.select().from(checklistMarks).where(eq(checklistMarks.userId, userId)),
    db.select({ answerKey: documents.answerKey, status: documents.status }).from(documents).where(eq(documents.userId, userId)),
    materialsOf(db, userId),
    currentChecklistRules(db),
  ]);
  return {
    rules: current.rules,
    marks: marks.map((mark): ChecklistMark => ({ key: mark.itemKey, status: mark.status, by: mark.byEmail, reason: mark.reason, at: mark.at.toISOString() })),
    converted: new Set(docs.filter((doc) => doc.status === 'completed').map((doc) => doc.answerKey)),
    files,
  };
}

/** A submitted application's checklist, each item with the files that came for it; null before submission. */
export async function checklistWithFiles(db: Db | Tx, application: { userId: string; answer: Record<string, unknown>; submittedAt: Date | null }) {
  if (!application.submittedAt) return null;
  const { marks, converted, files, rules } = await checklistInputs(db, application.userId);
  const attached = files.filter((file) => file.status === 'completed').map((file) => ({ key: file.itemKey, by: file.byEmail, at: file.createdAt.toISOString() }));
  const list = checklistOf(application.answer as Parameters<typeof checklistOf>[0], marks, converted, attached, rules);
  return { complete: list.complete, items: list.items.map((item) => ({ ...item, files: files.filter((file) => file.itemKey === item.key) })) };
}

/** The checklist as staff read it: each item with who marked it and every file, as the contract has it. */
export async function checklistOfApplication(db: Db | Tx, application: { userId: string; answer: Record<string, unknown>; submittedAt: Date | null }): Promise<Checklist | null> {
  const list = await checklistWithFiles(db, application);
  return list && { complete: list.complete, items: list.items.map(({ files, from: _from, ...item }) => ({ ...item, materials: files.map(materialOf) })) };
}

/**
 * Computes the checklist again and stores what is still missing (the list's filters read it).
 * When it has just become complete, the application moves to the bin the office chose for
 * complete ones (never back from a later stage), recorded as a move by `actor`.
 */
export async function refreshChecklist(db: Db, userId: string, actor: ChecklistActor): Promise<Checklist | null> {
  return db.transaction(async (tx) => {
    const [application] = await tx
      .select({ userId: applications.userId, answer: applications.answer, submittedAt: applications.submittedAt, missing: applications.checklistMissing, binId: applications.binId })
      .from(applications)
      .where(eq(applications.userId, userId))
      .for('update');
    const checklist = application ? await checklistOfApplication(tx, application) : null;
    if (!application || !checklist) return null;
    const missing = checklist.items.filter((item) => item.status === 'awaiting').map((item) => item.key);
    const becameComplete = missing.length === 0 && (application.missing === null || application.missing.length > 0);
    await tx.update(applications).set({ checklistMissing: missing }).where(eq(applications.userId, userId));
    if (becameComplete) {
      const [[target], [current]] = await Promise.all([
        tx.select().from(bins).where(eq(bins.receivesComplete, true)),
        application.binId === null ? [undefined] : tx.select().from(bins).where(eq(bins.id, application.binId)),
      ]);
      if (target && movesOnCompletion(current ?? null, target)) {
        await tx.update(applications).set({ binId: target.id }).where(eq(applications.userId, userId));
        await recordAudit(tx, { ...actor, action: 'bin_move', applicationId: userId, detail: { from: current?.name ?? null, to: target.name, reason: 'checklist complete' } });
      }
    }
    return checklist;
  });
}

/**
 * Submitted applications whose missing items were never stored (submitted before the checklist
 * was kept, or a process stopped between the submission and its refresh), 250 at a time.
 */
export async function refreshUnsetChecklists(db: Db): Promise<number> {
  let done = 0;
  for (;;) {
    const batch = await db.select({ userId: applications.userId }).from(applications).where(and(isNotNull(applications.submittedAt), isNull(applications.checklistMissing))).limit(250);
    for (const { userId } of batch) await refreshChecklist(db, userId, PORTAL_ACTOR);
    done += batch.length;
    if (batch.length < 250) return done;
  }
}

/** Every file attached for an item lives under this prefix; nothing else is accepted. */
export const materialPrefix = (userId: string, itemKey: string) => `materials/${userId}/${itemKey}/`;
