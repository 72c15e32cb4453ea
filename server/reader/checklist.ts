import type { FastifyBaseLogger } from 'fastify';
import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import { checklistMessages, onChecklist, type ChecklistRule } from '../../domain/checklist';
import { MAX_FILE_BYTES } from '../../domain/config';
import { fileMessages } from '../../domain/messages';
import { contentTypeOfName } from '../../domain/rules/files';
import { staffMessages } from '../../domain/staff';
import { conversionFailure, convertUpload } from '../files/convert';
import { checklistOfApplication, currentChecklistRules, materialOf, materialPrefix, PORTAL_ACTOR, refreshChecklist, refreshUnsetChecklists } from '../office/checklist';
import { sendPdfDownload } from '../http/download';
import type { Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import { randomToken } from '../infra/crypto';
import type { Db } from '../infra/db';
import type { Jobs } from '../infra/jobs';
import type { Storage } from '../infra/storage';
import { applications, checklistMarks, materials, recommenders } from '../infra/schema';
import { downloadNameOf } from '../office/downloadName';
import { recordAudit } from '../office/audit';
import { staffCall } from '../office/sessions';
import { HttpError } from '../http/errors';

export interface MaterialDeps {
  db: Db;
  storage: Storage;
  jobs: Jobs;
  chromiumPath: string;
  log: Pick<FastifyBaseLogger, 'error'>;
  uploadWindowSeconds?: number;
}


/** The conversion job of an attached file; once converted the item counts as received. */
async function convertMaterial(deps: MaterialDeps, materialId: string): Promise<void> {
  const { db } = deps;
  const [row] = await db.update(materials).set({ status: 'in_progress', updatedAt: clock.now() }).where(eq(materials.id, materialId)).returning();
  if (!row) return; // removed before its turn
  try {
    const { pdfKey, size } = await convertUpload(deps, row, `converted/${row.userId}/materials/`);
    // A recommender's letter converted: the recommendation is in and their link used up, in the
    // same transaction, so their page never finds the letter done and the link still open.
    const done = await db.transaction(async (tx) => {
      const [converted] = await tx.update(materials).set({ status: 'completed', fileSize: size, pdfKey, message: null }).where(eq(materials.id, materialId)).returning();
      if (converted?.recommenderId) await tx.update(recommenders).set({ status: 'submitted', submittedAt: clock.now() }).where(and(eq(recommenders.id, converted.recommenderId), ne(recommenders.status, 'withdrawn')));
      return converted;
    });
    if (!done) {
      await deps.storage.delete(pdfKey); // removed while converting
      return;
    }
    // A move it causes is the attaching member's; a letter's or the applicant's own file's, the portal's.
    await refreshChecklist(db, row.userId, row.source === 'staff' ? { staff: { id: null, email: row.byEmail }, ip: '-' } : PORTAL_ACTOR);
  } catch (error) {
    await db.update(materials).set({ status: 'failed', message: conversionFailure(error, deps.log) }).where(eq(materials.id, materialId));
  }
}

/** Refuses an item that cannot be marked or given a file: no such application, not submitted, not on its checklist. */
function refuseUnlessOnChecklist(application: { answer: Record<string, unknown>; submittedAt: Date | null } | undefined, key: string, rules: readonly ChecklistRule[]): void {
  if (!application) throw new HttpError(404, staffMessages.applicationNotFound);
  if (!application.submittedAt) throw new HttpError(409, checklistMessages.notSubmitted);
  if (!onChecklist(application.answer as Parameters<typeof onChecklist>[0], key, rules)) throw new HttpError(404, checklistMessages.notOnChecklist);
}

/**
 * Works on attached files in this process, and at start-up stores the checklists never stored.
 * Files a crash left unconverted are queued again by `requeueStuckJobsNowAndThen` (infra/stuckJobs.ts).
 */
export async function registerMaterialWorker(jobs: Jobs, deps: MaterialDeps): Promise<void> {
  await jobs.work('convert-material', (data) => convertMaterial(deps, data.materialId!));
  void refreshUnsetChecklists(deps.db).catch((error: unknown) => deps.log.error(error, 'checklist start-up refresh failed'));
}

export function checklistHandlers(deps: MaterialDeps) {
  const { db, storage } = deps;

  /** Refuses (HttpError) unless `key` is an item of the application's checklist. */
  async function refuseUnlessItem(userId: string, key: string): Promise<void> {
    const [[application], current] = await Promise.all([
      db.select({ answer: applications.answer, submittedAt: applications.submittedAt }).from(applications).where(eq(applications.userId, userId)),
      currentChecklistRules(db),
    ]);
    refuseUnlessOnChecklist(application, key, current.rules);
  }

  const materialRow = async (userId: string, materialId: string) =>
    (await db.select().from(materials).where(and(eq(materials.id, materialId), eq(materials.userId, userId))))[0];

  return {
    markChecklistItem: staffCall<'markChecklistItem'>('reader', async (request, reply, staff) => {
      const { id: userId, key } = request.params;
      const { status } = request.body;
      const reason = request.body.reason?.trim() || null;
      if (status === 'waived' && !reason) throw new HttpError(400, checklistMessages.reasonRequired, { errors: { reason: [checklistMessages.reasonRequired] } });
      await db.transaction(async (tx) => {
        const [application] = await tx.select({ answer: applications.answer, submittedAt: applications.submittedAt }).from(applications).where(eq(applications.userId, userId)).for('update');
        refuseUnlessOnChecklist(application, key, (await currentChecklistRules(tx)).rules);
        if (status === 'awaiting') await tx.delete(checklistMarks).where(and(eq(checklistMarks.userId, userId), eq(checklistMarks.itemKey, key)));
        else {
          const mark = { status, byEmail: staff.email, reason: status === 'waived' ? reason : null, at: clock.now() };
          await tx
            .insert(checklistMarks)
            .values({ userId, itemKey: key, ...mark })
            .onConflictDoUpdate({ target: [checklistMarks.userId, checklistMarks.itemKey], set: mark });
        }
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'checklist_mark', applicationId: userId, detail: { key, status, reason: status === 'waived' ? reason : null }, ip: request.ip });
      });
      const checklist = await refreshChecklist(db, userId, { staff: { id: staff.staffId, email: staff.email }, ip: request.ip });
      return reply.code(200).send(checklist!);
    }),

    getChecklist: staffCall<'getChecklist'>('reader', async (request, reply, staff) => {
      const userId = request.params.id;
      const [application] = await db.select({ userId: applications.userId, answer: applications.answer, submittedAt: applications.submittedAt }).from(applications).where(eq(applications.userId, userId));
      if (!application) throw new HttpError(404, staffMessages.applicationNotFound);
      const checklist = await checklistOfApplication(db, application);
      if (!checklist) throw new HttpError(409, checklistMessages.notSubmitted);
      await recordAudit(db, { staff: { id: staff.staffId, email: staff.email }, action: 'checklist_view', applicationId: userId, ip: request.ip });
      return reply.code(200).send(checklist);
    }),

    presignMaterialUpload: staffCall<'presignMaterialUpload'>('reader', async (request, reply) => {
      const { id: userId, key } = request.params;
      await refuseUnlessItem(userId, key);
      const post = await storage.presignPost({
        key: `${materialPrefix(userId, key)}${randomToken(12)}`,
        owner: userId,
        contentType: request.body.content_type,
        maxBytes: MAX_FILE_BYTES,
        expiresInSeconds: deps.uploadWindowSeconds ?? 600,
      });
      return reply.code(200).send(post);
    }),

    attachMaterial: staffCall<'attachMaterial'>('reader', async (request, reply, staff) => {
      const { id: userId, key } = request.params;
      const { file_key, file_name } = request.body;
      await refuseUnlessItem(userId, key);
      if (!file_key.startsWith(materialPrefix(userId, key)) || file_key.includes('..')) throw new HttpError(403, checklistMessages.materialNotFound);
      if (!contentTypeOfName(file_name)) throw new HttpError(415, fileMessages.wrongType);
      const row = await db.transaction(async (tx) => {
        const [inserted] = await tx.insert(materials).values({ userId, itemKey: key, fileKey: file_key, fileName: file_name, byEmail: staff.email, createdAt: clock.now() }).returning();
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'material_attach', applicationId: userId, detail: { key, file_name }, ip: request.ip });
        return inserted!;
      });
      await deps.jobs.send('convert-material', { materialId: row.id });
      return reply.code(202).send(materialOf({ ...row, recommender: null }));
    }),

    downloadMaterial: staffCall<'downloadMaterial'>('reader', async (request, reply, staff) => {
      const { id: userId, material } = request.params;
      const row = await materialRow(userId, material);
      const bytes = row?.status === 'completed' && row.pdfKey ? await storage.get(row.pdfKey) : null;
      if (!row || !bytes) throw new HttpError(404, checklistMessages.materialNotFound);
      const inline = request.query.view === 'inline';
      await recordAudit(db, { staff: { id: staff.staffId, email: staff.email }, action: inline ? 'material_view' : 'material_download', applicationId: userId, detail: { key: row.itemKey, file_name: row.fileName }, ip: request.ip });
      return sendPdfDownload(reply, bytes, await downloadNameOf(db, userId, row.fileName.replace(/\.[^.]+$/, '')), inline ? 'inline' : 'attachment');
    }),

    removeMaterial: staffCall<'removeMaterial'>('reader', async (request, reply, staff) => {
      const { id: userId, material } = request.params;
      const removed = await db.transaction(async (tx) => {
        const [row] = await tx.delete(materials).where(and(eq(materials.id, material), eq(materials.userId, userId))).returning();
        if (row) await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'material_remove', applicationId: userId, detail: { key: row.itemKey, file_name: row.fileName }, ip: request.ip });
        return row;
      });
      if (!removed) throw new HttpError(404, checklistMessages.materialNotFound);
      await Promise.all([storage.delete(removed.fileKey), removed.pdfKey ? storage.delete(removed.pdfKey) : undefined]);
      const checklist = await refreshChecklist(db, userId, { staff: { id: staff.staffId, email: staff.email }, ip: request.ip });
      return reply.code(200).send(checklist!);
    }),
  } satisfies Handlers;
}

/** Applications still awaiting something, or one item in particular: the list's checklist filters. */
export function checklistFilters(query: { checklist?: 'complete' | 'incomplete'; missing?: string }): SQL[] {
  const filters: SQL[] = [];
  if (query.checklist === 'complete') filters.push(sql`a.checklist_missing = '{}'::text[]`);
  if (query.checklist === 'incomplete') filters.push(sql`a.checklist_missing <> '{}'::text[]`);
  if (query.missing) filters.push(sql`a.checklist_missing @> array[${query.missing}]::text[]`);
  return filters;
}
