import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { exportTemplateErrors, exportTemplateMessages, STUCK_RUN_MINUTES, type ExportTemplate } from '../../domain/exportTemplates';
import type { components } from '../../generated/api';
import type { Storage } from '../infra/storage';
import type { Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import { isUniqueViolation, workLocks, type Db } from '../infra/db';
import type { Jobs } from '../infra/jobs';
import { exportRuns, exportTemplates } from '../infra/schema';
import { recordAudit } from '../office/audit';
import { staffCall } from '../office/sessions';
import { bundleKeyOf, contentTypeOf, createRun, executeRun, publishPendingRuns } from './run';
import { WITHDRAWN_MESSAGE } from './withdraw';
import { HttpError } from '../http/errors';

type Contract = components['schemas'];
type TemplateRow = typeof exportTemplates.$inferSelect;
type RunRow = typeof exportRuns.$inferSelect;

export const exportMessages = {
  templateNotFound: 'There is no such export template.',
  runNotFound: 'There is no such export run.',
  fileNotReady: 'This run has no file: only a run that succeeded has one.',
  noDocuments: 'This run has no documents: its template does not carry them, or the run has not succeeded.',
} as const;

const fromContract = (body: Contract['ExportTemplate']): ExportTemplate => ({
  name: body.name.trim(),
  format: body.format,
  columns: body.columns.map((column) => ({ field: column.field, header: column.header, codes: column.codes ?? null })),
  filter: { stages: body.filter.stages, terms: body.filter.terms, decisions: body.filter.decisions, checklist: body.filter.checklist },
  codeTables: body.code_tables,
  schedule: { every: body.schedule.every, hourUtc: body.schedule.hour_utc },
  documents: body.documents,
  unmappedValues: body.unmapped_values ?? 'keep',
});

const detailOf = (row: TemplateRow): Contract['ExportTemplateDetail'] => ({
  id: row.id,
  name: row.definition.name,
  format: row.definition.format,
  columns: row.definition.columns,
  filter: row.definition.filter,
  code_tables: row.definition.codeTables,
  schedule: { every: row.definition.schedule.every, hour_utc: row.definition.schedule.hourUtc },
  documents: row.definition.documents,
  unmapped_values: row.definition.unmappedValues ?? 'keep',
  cursor_at: row.cursorAt?.toISOString() ?? null,
  updated_by: row.updatedByEmail,
  updated_at: row.updatedAt.toISOString(),
});

export const runOf = (run: RunRow): Contract['ExportRun'] => ({
  id: run.id,
  template_id: run.templateId,
  template_name: run.templateName,
  format: run.format as Contract['ExportRun']['format'],
  mode: run.mode,
  // Committed but its files not yet under their final names: still under way, for whoever waits on it.
  status: run.status === 'succeeded' && !run.published ? 'running' : run.status,
  started_by: run.startedBy,
  started_at: run.startedAt.toISOString(),
  finished_at: run.finishedAt?.toISOString() ?? null,
  rows: run.rows,
  bytes: run.bytes,
  // A file to fetch only once it has its final name.
  file_name: run.status === 'succeeded' && run.published && !run.withdrawnAt ? run.fileName : null,
  bundle_file_name: run.status === 'succeeded' && run.published && !run.withdrawnAt ? run.bundleFileName : null,
  withdrawn_at: run.withdrawnAt?.toISOString() ?? null,
  unmapped: run.unmapped,
  message: run.message,
});

const invalid = (errors: Record<string, string[]>) => new HttpError(400, 'Please check the highlighted fields.', { errors });

/**
 * A succeeded run's file or documents' zip, streamed from storage and recorded in the audit log as
 * leaving (by a member or a machine client); 404 while there is none.
 */
export async function sendRunFile(options: { db: Db; storage: Storage; reply: FastifyReply; run: RunRow; part: 'file' | 'documents'; actor: { id: string | null; email: string }; ip: string }) {
  const { run, reply, part } = options;
  if (run.withdrawnAt) throw new HttpError(410, WITHDRAWN_MESSAGE);
  const ready = run.status === 'succeeded' && run.published && run.fileKey;
  const key = ready ? (part === 'file' ? run.fileKey : run.bundleFileName ? bundleKeyOf(run.fileKey!) : null) : null;
  const file = key ? await options.storage.stream(key) : null;
  if (!file) throw new HttpError(404, part === 'file' ? exportMessages.fileNotReady : exportMessages.noDocuments);
  await recordAudit(options.db, { staff: options.actor, action: 'export_download', detail: { template: run.templateName, run: run.id, rows: run.rows, ...(part === 'documents' ? { part } : {}) }, ip: options.ip });
  reply.header('content-disposition', `attachment; filename="${part === 'file' ? run.fileName : run.bundleFileName}"`).header('cache-control', 'private, no-store');
  return reply.type(part === 'file' ? contentTypeOf(run.format) : 'application/zip').code(200).send(file);
}

/**
 * A run made and on the record, by a member or a machine client; 'busy' while another run of the
 * template is under way (started lately: an older one was killed and is no obstacle), null for no template.
 */
export async function beginRun(db: Db, templateId: number, mode: 'changes' | 'all', actor: { id: string | null; email: string }, ip: string) {
  if (await runUnderWay(db, templateId)) return 'busy' as const;
  const run = await createRun(db, templateId, mode, actor.email);
  if (run) await recordAudit(db, { staff: actor, action: 'export_run', detail: { template: run.templateName, run: run.id, mode: run.mode }, ip });
  return run;
}

/** What the operator reads on a run whose process ended before it did (issue 49, item 6). */
export const RUN_DIED_MESSAGE = 'Stopped: the process running it ended before it finished (a restart or a crash). Its changes leave in the next run.';

/**
 * Whether a run of the template is under way: taken up by a worker that still holds its lock, or
 * made lately and not taken up yet. A run whose worker is gone is marked failed here, with why, and
 * is no obstacle (before: it blocked every run of its template for 10 minutes).
 */
async function runUnderWay(db: Db, templateId: number): Promise<boolean> {
  const running = await db
    .select({ id: exportRuns.id, takenUp: exportRuns.toXid, startedAt: exportRuns.startedAt })
    .from(exportRuns)
    .where(and(eq(exportRuns.templateId, templateId), eq(exportRuns.status, 'running')));
  const lostAfter = clock.now().getTime() - STUCK_RUN_MINUTES * 60_000;
  let underWay = false;
  for (const run of running) {
    if (await workLocks(db).held(run.id)) underWay = true;
    else if (run.takenUp === null) underWay ||= run.startedAt.getTime() > lostAfter;
    else await db.update(exportRuns).set({ status: 'failed', finishedAt: clock.now(), message: RUN_DIED_MESSAGE }).where(and(eq(exportRuns.id, run.id), eq(exportRuns.status, 'running')));
  }
  return underWay;
}

/** The `export-run` job: a run made by a person, the schedule or a machine client. */
export async function registerExportWorker(jobs: Jobs, deps: { db: Db; storage: Storage }): Promise<void> {
  // A run that committed but died before its file took its final name is finished first.
  await publishPendingRuns(deps);
  await jobs.work('export-run', (data) => executeRun(deps, Number(data.run)));
}

export function exportTemplateHandlers(deps: { db: Db; jobs: Jobs; storage: Storage }) {
  const { db } = deps;
  const find = async (id: number) => (await db.select().from(exportTemplates).where(eq(exportTemplates.id, id)))[0];

  return {
    // Templates hold no applicant's data: not in the audit log.
    listExportTemplates: staffCall<'listExportTemplates'>('admin', async (_request, reply) => {
      const templates = await db.select().from(exportTemplates).orderBy(exportTemplates.name);
      const lastRuns = templates.length
        ? await db
            .selectDistinctOn([exportRuns.templateId])
            .from(exportRuns)
            .where(inArray(exportRuns.templateId, templates.map((template) => template.id)))
            .orderBy(exportRuns.templateId, desc(exportRuns.id))
        : [];
      const lastRunOf = new Map(lastRuns.map((run) => [run.templateId, run]));
      return reply.code(200).send({
        templates: templates.map((template) => {
          const last = lastRunOf.get(template.id);
          return { id: template.id, name: template.name, format: template.definition.format, columns: template.definition.columns.length, cursor_at: template.cursorAt?.toISOString() ?? null, last_run: last ? runOf(last) : null };
        }),
      });
    }),

    createExportTemplate: staffCall<'createExportTemplate'>('admin', async (request, reply, staff) => {
      const definition = fromContract(request.body);
      const errors = exportTemplateErrors(definition);
      if (Object.keys(errors).length) throw invalid(errors);
      try {
        const row = await db.transaction(async (tx) => {
          const [created] = await tx.insert(exportTemplates).values({ name: definition.name, definition, updatedByEmail: staff.email, updatedAt: clock.now() }).returning();
          await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'export_template_change', detail: { template: definition.name, change: 'create' }, ip: request.ip });
          return created!;
        });
        return reply.code(201).send(detailOf(row));
      } catch (error) {
        if (isUniqueViolation(error)) throw new HttpError(409, exportTemplateMessages.nameTaken, { errors: { name: [exportTemplateMessages.nameTaken] } });
        throw error;
      }
    }),

    getExportTemplate: staffCall<'getExportTemplate'>('admin', async (request, reply) => {
      const row = await find(request.params.template);
      if (!row) throw new HttpError(404, exportMessages.templateNotFound);
      return reply.code(200).send(detailOf(row));
    }),

    updateExportTemplate: staffCall<'updateExportTemplate'>('admin', async (request, reply, staff) => {
      const definition = fromContract(request.body);
      const errors = exportTemplateErrors(definition);
      if (Object.keys(errors).length) throw invalid(errors);
      try {
        const row = await db.transaction(async (tx) => {
          const [updated] = await tx
            .update(exportTemplates)
            .set({ name: definition.name, definition, updatedByEmail: staff.email, updatedAt: clock.now() })
            .where(eq(exportTemplates.id, request.params.template))
            .returning();
          if (updated) await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'export_template_change', detail: { template: definition.name, change: 'update' }, ip: request.ip });
          return updated;
        });
        if (!row) throw new HttpError(404, exportMessages.templateNotFound);
        return reply.code(200).send(detailOf(row));
      } catch (error) {
        if (isUniqueViolation(error)) throw new HttpError(409, exportTemplateMessages.nameTaken, { errors: { name: [exportTemplateMessages.nameTaken] } });
        throw error;
      }
    }),

    deleteExportTemplate: staffCall<'deleteExportTemplate'>('admin', async (request, reply, staff) => {
      const removed = await db.transaction(async (tx) => {
        const [row] = await tx.delete(exportTemplates).where(eq(exportTemplates.id, request.params.template)).returning({ name: exportTemplates.name });
        if (row) await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'export_template_change', detail: { template: row.name, change: 'delete' }, ip: request.ip });
        return row;
      });
      if (!removed) throw new HttpError(404, exportMessages.templateNotFound);
      return reply.code(204).send();
    }),

    startExportRun: staffCall<'startExportRun'>('admin', async (request, reply, staff) => {
      const templateId = request.params.template;
      if (!(await find(templateId))) throw new HttpError(404, exportMessages.templateNotFound);
      const run = await beginRun(db, templateId, request.body.mode, { id: staff.staffId, email: staff.email }, request.ip);
      if (run === 'busy') throw new HttpError(409, exportTemplateMessages.runInProgress);
      if (!run) throw new HttpError(404, exportMessages.templateNotFound);
      await deps.jobs.send('export-run', { run: String(run.id) });
      return reply.code(202).send(runOf(run));
    }),

    listExportRuns: staffCall<'listExportRuns'>('admin', async (request, reply) => {
      const { template } = request.query;
      const runs = await db
        .select()
        .from(exportRuns)
        .where(template === undefined ? undefined : eq(exportRuns.templateId, template))
        .orderBy(desc(exportRuns.id))
        .limit(50);
      return reply.code(200).send({ runs: runs.map(runOf) });
    }),

    getExportRun: staffCall<'getExportRun'>('admin', async (request, reply) => {
      const [run] = await db.select().from(exportRuns).where(eq(exportRuns.id, request.params.run));
      if (!run) throw new HttpError(404, exportMessages.runNotFound);
      return reply.code(200).send(runOf(run));
    }),

    downloadExportRun: staffCall<'downloadExportRun'>('admin', async (request, reply, staff) => {
      const [run] = await db.select().from(exportRuns).where(eq(exportRuns.id, request.params.run));
      if (!run) throw new HttpError(404, exportMessages.runNotFound);
      return sendRunFile({ ...deps, reply, run, part: 'file', actor: { id: staff.staffId, email: staff.email }, ip: request.ip });
    }),

    downloadExportRunDocuments: staffCall<'downloadExportRunDocuments'>('admin', async (request, reply, staff) => {
      const [run] = await db.select().from(exportRuns).where(eq(exportRuns.id, request.params.run));
      if (!run) throw new HttpError(404, exportMessages.runNotFound);
      return sendRunFile({ ...deps, reply, run, part: 'documents', actor: { id: staff.staffId, email: staff.email }, ip: request.ip });
    }),
  } satisfies Handlers;
}
