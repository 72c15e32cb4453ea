/**
 * One run of an export template (issue 32, docs/decisions/0025): the applications it takes that
 * changed inside its window, a batch at a time, written to a file on disk, stored, then the cursor
 * moved and the file given its final name. Each change leaves in exactly one successful run:
 *
 * - The window is transaction ids: from the template's cursor (inclusive) to the horizon, the
 *   oldest transaction still running when the run began (exclusive). An application is in it when
 *   its row or its decision's row was changed in it (`changed_xid` on each). Every change below the
 *   horizon is committed or gone, so no later commit can land inside a window already taken.
 * - The cursor moves only if it is still where the run found it (compare and set), in the same
 *   transaction that marks the run succeeded; a run killed before that leaves it where it was, and
 *   the next run takes the same changes again. Its stored `.part` file never takes a final name.
 * - A run killed after the commit but before the rename is finished by `publishPendingRuns`.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import { answerKeys, documentKeys } from '../../domain/catalogue';
import { FILE_EXTENSIONS, fieldSlug, reviewFieldOf, translated, tsvIanaField, unmappedFailure, type ExportFormat, type ExportTemplate, type ExportValue, type ReviewField } from '../../domain/exportTemplates';
import { shownLabel } from '../../domain/rules/choiceLabels';
import type { Storage } from '../infra/storage';
import { clock } from '../infra/clock';
import { unavailableReason } from '../infra/unavailable';
import { rowsOf, workLocks, type Db } from '../infra/db';
import { applicationScores, applications, bins, decisions, documents, exportRunApplicants, exportRuns, exportTemplates, reviews, users } from '../infra/schema';
import { Pacer } from '../infra/pace';
import { neutralised } from '../office/spreadsheet';
import { openBundle } from './bundle';

/** A run that carried someone erased while it ran leaves no file: its cursor stays, the next run takes its changes. */
const ERASED_WHILE_RUNNING = 'Stopped: an applicant it carried was erased while it ran. Its changes leave in the next run.';

/** Applications read and written per batch: memory holds one batch, whatever the number. */
const BATCH = 500;

export interface RunHooks {
  /** Rows written so far, after each batch (the kill test stops a run here). */
  afterBatch?: (rows: number) => void | Promise<void>;
  /** The `.part` file is stored; the cursor has not moved. */
  afterStored?: () => void | Promise<void>;
  /** The cursor has moved; the file has not its final name yet. */
  afterCommit?: () => void | Promise<void>;
}

interface SourceRow {
  application_number: number;
  user_id: string;
  email: string;
  status: string;
  submitted_at: string | Date | null;
  updated_at: string | Date;
  withdrawn_at: string | Date | null;
  merged_into: string | null;
  answer: Record<string, ExportValue>;
  checklist_missing: string[] | null;
  bin: string | null;
  decision: string | null;
  decision_released_at: string | Date | null;
  decision_reply: string | null;
  files: Record<string, string> | null;
  /** The committee's tally (application_scores); null before the first review. */
  review_count: number | null;
  review_means: Record<string, number> | null;
  review_recommendations: Record<string, number> | null;
  composite_score: number | null;
  /** Each review, oldest first, when a column names one. */
  reviews?: { reviewer: string; ratings: { scale: string; rating: number }[]; recommendation: string; comment: string }[] | null;
}

/** A review field's value (issue 51 §1): names on the form are matched by their slug, as the field names them. */
function reviewFieldValue(row: SourceRow, field: ReviewField): ExportValue {
  const bySlug = (values: Record<string, number> | null, slug: string) => Object.entries(values ?? {}).find(([name]) => fieldSlug(name) === slug)?.[1];
  switch (field.kind) {
    case 'count':
      return row.review_count ?? 0;
    case 'composite':
      return row.composite_score ?? null;
    case 'mean':
      return bySlug(row.review_means, field.slug) ?? null;
    case 'recommended':
      return bySlug(row.review_recommendations, field.slug) ?? 0;
    case 'review': {
      const review = row.reviews?.[field.index - 1];
      return review ? review[field.part] : null;
    }
    case 'rating':
      return row.reviews?.[field.index - 1]?.ratings.find((rating) => fieldSlug(rating.scale) === field.slug)?.rating ?? null;
  }
}

const documentKeySet = new Set(documentKeys);
const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/** One field of one application, exactly as stored (dates as ISO 8601 in UTC). */
function fieldValue(row: SourceRow, field: string, format: ExportFormat): ExportValue | string[] {
  switch (field) {
    case 'application_number':
      return row.application_number;
    case 'applicant_id':
      return row.user_id;
    case 'email':
      return row.email;
    case 'status':
      return row.status;
    case 'submitted_at':
      return iso(row.submitted_at);
    case 'updated_at':
      return iso(row.updated_at);
    case 'withdrawn_at':
      return iso(row.withdrawn_at);
    case 'merged_into':
      return row.merged_into;
    case 'decision':
      return row.decision;
    case 'decision_released_at':
      return iso(row.decision_released_at);
    case 'decision_reply':
      return row.decision_reply;
    case 'checklist_state':
      return row.checklist_missing === null ? null : row.checklist_missing.length === 0 ? 'complete' : 'incomplete';
    case 'checklist_missing':
      // JSON keeps the list; a delimited file has one cell for it.
      return row.checklist_missing === null ? null : format === 'jsonl' ? row.checklist_missing : row.checklist_missing.join(';');
    case 'bin':
      return row.bin;
  }
  if (documentKeySet.has(field)) return row.files?.[field] ?? null;
  const reviewField = reviewFieldOf(field);
  if (reviewField) return reviewFieldValue(row, reviewField);
  // A label as the catalogue has it: answers stored before the server wrote them may carry a browser's.
  if (field.endsWith('_desc')) return shownLabel(field.slice(0, -'_desc'.length), row.answer) ?? row.answer[field] ?? null;
  return answerKeys.has(field) ? (row.answer[field] ?? null) : null;
}

/** A value its code table does not list, in a template that fails the run on one: the run's message. */
class UnmappedValue extends Error {}

/** One application as the template's record: column name → value, translated where a column says. */
function templateRecord(template: ExportTemplate, row: SourceRow, unmapped: Map<string, number>): Record<string, ExportValue | string[]> {
  const record: Record<string, ExportValue | string[]> = {};
  for (const column of template.columns) {
    const value = fieldValue(row, column.field, template.format);
    if (Array.isArray(value) || column.codes === null) {
      record[column.header] = value;
      continue;
    }
    const result = translated(value, template.codeTables[column.codes]);
    if (result.unmapped) {
      unmapped.set(column.header, (unmapped.get(column.header) ?? 0) + 1);
      if (template.unmappedValues === 'fail') throw new UnmappedValue(unmappedFailure(column.header, String(value), Number(row.application_number)));
    }
    record[column.header] = result.unmapped && template.unmappedValues === 'blank' ? null : result.value;
  }
  return record;
}

const cell = (value: ExportValue | string[]): string => (value === null ? '' : Array.isArray(value) ? value.join(';') : String(value));

/**
 * Lines of the file for a batch of records. CSV and tab-delimited: RFC 4180 quoting (a value with
 * the delimiter, a quote, CR or LF is quoted, quotes doubled), CRLF after every record. The
 * spreadsheet flavour alone neutralises formulas. IANA tab-separated: no quoting, escapes, LF.
 */
function encodeRecords(format: ExportFormat, headers: readonly string[], records: readonly Record<string, ExportValue | string[]>[], withHeader: boolean): string {
  if (format === 'jsonl') return records.map((record) => `${JSON.stringify(record)}\n`).join('');
  if (format === 'tsv_iana') {
    const lines = records.map((record) => headers.map((header) => tsvIanaField(cell(record[header] ?? null))).join('\t'));
    if (withHeader) lines.unshift(headers.map(tsvIanaField).join('\t'));
    return lines.map((line) => `${line}\n`).join('');
  }
  const rows = records.map((record) => headers.map((header) => (format === 'spreadsheet' ? neutralised(cell(record[header] ?? null)) : cell(record[header] ?? null))));
  // The header row is cells too: a column named `=HYPERLINK(…)` would run in a spreadsheet.
  if (withHeader) rows.unshift(format === 'spreadsheet' ? headers.map(neutralised) : [...headers]);
  if (rows.length === 0) return '';
  return stringify(rows, {
    delimiter: format === 'tsv' ? '\t' : ',',
    record_delimiter: 'windows',
    // A bare CR or LF inside a value is quoted too, whatever the record delimiter; a spreadsheet
    // that splits on `;` or a tab keeps such a value in one cell.
    quoted_match: format === 'spreadsheet' ? /[\r\n;\t]/ : /[\r\n]/,
  });
}

/** Which applications a template takes, as SQL over `a` (applications), `d` (decisions). */
function templateFilter(template: ExportTemplate, now: Date): SQL[] {
  const filters: SQL[] = [];
  const { stages, terms, decisions: wanted, checklist } = template.filter;
  if (stages.length === 1) filters.push(stages[0] === 'submitted' ? sql`a.submitted_at is not null` : sql`a.submitted_at is null`);
  if (terms.length) filters.push(sql`a.entry_term in (${sql.join(terms.map((term) => sql`${term}`), sql`, `)})`);
  if (wanted.length) {
    const released = wanted.filter((decision) => decision !== 'none');
    const either: SQL[] = [];
    if (released.length) either.push(sql`(d.release_at <= ${now} and d.decision in (${sql.join(released.map((decision) => sql`${decision}`), sql`, `)}))`);
    if (wanted.includes('none')) either.push(sql`(d.user_id is null or d.release_at is null or d.release_at > ${now})`);
    filters.push(sql`(${sql.join(either, sql` or `)})`);
  }
  if (checklist === 'complete') filters.push(sql`a.checklist_missing = '{}'::text[]`);
  if (checklist === 'incomplete') filters.push(sql`cardinality(a.checklist_missing) > 0`);
  return filters;
}

/** The oldest transaction still running: every change below it is committed or rolled back. */
async function horizon(db: Db): Promise<string> {
  const [row] = rowsOf<{ horizon: string }>(await db.execute(sql`select pg_snapshot_xmin(pg_current_snapshot())::text as horizon`));
  return row!.horizon;
}

async function* windowRows(db: Db, template: ExportTemplate, window: { from: string | null; to: string }): AsyncGenerator<SourceRow[]> {
  const now = clock.now();
  // An application is in the window when it changed there, or its decision did (each marks its own row).
  const inWindow =
    window.from === null
      ? sql`(a.changed_xid is null or a.changed_xid < ${window.to}::xid8 or d.changed_xid < ${window.to}::xid8)`
      : sql`((a.changed_xid >= ${window.from}::xid8 and a.changed_xid < ${window.to}::xid8) or (d.changed_xid >= ${window.from}::xid8 and d.changed_xid < ${window.to}::xid8))`;
  // Each review read only for a template that carries one (a subquery per application).
  const carriesReviews = template.columns.some((column) => ['review', 'rating'].includes(reviewFieldOf(column.field)?.kind ?? ''));
  let after = 0;
  for (;;) {
    const batch = rowsOf<SourceRow>(
      await db.execute(sql`
        select a.application_number, a.user_id, u.username as email, a.status, a.submitted_at,
          -- The last change of anything the row carries: a save, a change outside it (status, checklist,
          -- bin, withdrawal, merge, a correction), or its decision once released (issue 51).
          greatest(a.updated_at, a.changed_at, case when d.release_at <= ${now} then greatest(d.changed_at, d.release_at) end) as updated_at,
          a.withdrawn_at, a.merged_into, a.answer, a.checklist_missing, b.name as bin,
          case when d.release_at <= ${now} then d.decision end as decision,
          case when d.release_at <= ${now} then d.release_at end as decision_released_at,
          case when d.release_at <= ${now} then d.reply end as decision_reply,
          (select json_object_agg(f.answer_key, f.file_name) from ${documents} f where f.user_id = a.user_id and f.status = 'completed') as files,
          s.reviews as review_count, s.means as review_means, s.recommendations as review_recommendations, s.composite as composite_score${
            carriesReviews
              ? sql`, (select json_agg(json_build_object('reviewer', r.reviewer_email, 'ratings', r.ratings, 'recommendation', r.recommendation, 'comment', r.comment) order by r.id) from ${reviews} r where r.user_id = a.user_id) as reviews`
              : sql``
          }
        from ${applications} a
        left join ${applicationScores} s on s.user_id = a.user_id
        join ${users} u on u.id = a.user_id
        left join ${decisions} d on d.user_id = a.user_id
        left join ${bins} b on b.id = a.bin_id
        where a.application_number > ${after} and ${inWindow}${sql.join(
          templateFilter(template, now).map((filter) => sql` and ${filter}`),
          sql``,
        )}
        order by a.application_number
        limit ${BATCH}`),
    );
    if (batch.length) yield batch;
    if (batch.length < BATCH) return;
    after = Number(batch.at(-1)!.application_number);
  }
}

const CONTENT_TYPES: Record<ExportFormat, string> = { csv: 'text/csv; charset=utf-8', tsv: 'text/tab-separated-values; charset=utf-8', tsv_iana: 'text/tab-separated-values; charset=utf-8', jsonl: 'application/jsonl; charset=utf-8', spreadsheet: 'text/csv; charset=utf-8' };
export const contentTypeOf = (format: string): string => CONTENT_TYPES[format as ExportFormat] ?? 'application/octet-stream';

const slug = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'export';

const runFileKey = (templateId: number, runId: number, format: string) => `exports/${templateId}/run-${runId}.${FILE_EXTENSIONS[format as ExportFormat] ?? 'txt'}`;

/** A new run of a template, not yet started: the job (`export-run`) takes it. */
export async function createRun(db: Db, templateId: number, mode: 'changes' | 'all', startedBy: string): Promise<typeof exportRuns.$inferSelect | null> {
  const [template] = await db.select().from(exportTemplates).where(eq(exportTemplates.id, templateId));
  if (!template) return null;
  const [run] = await db
    .insert(exportRuns)
    .values({ templateId, templateName: template.name, format: template.definition.format, mode, status: 'running', startedBy, startedAt: clock.now() })
    .returning();
  return run!;
}

/**
 * Carries out a run made by `createRun`. Safe to call again for the same run (a job retried): it
 * takes the window from the cursor as it is then.
 */
export async function executeRun(deps: { db: Db; storage: Storage }, runId: number, hooks: RunHooks = {}): Promise<void> {
  const { db } = deps;
  const [run] = await db.select().from(exportRuns).where(eq(exportRuns.id, runId));
  if (!run || run.status !== 'running' || run.templateId === null) return;
  // Held for the run's length and let go by this process's death: a new run of the template knows at once whether this one still runs.
  const release = await workLocks(db).hold(runId);
  try {
    await carryOut(deps, run, hooks);
  } finally {
    await release();
  }
}

async function carryOut(deps: { db: Db; storage: Storage }, run: typeof exportRuns.$inferSelect, hooks: RunHooks): Promise<void> {
  const { db, storage } = deps;
  const runId = run.id;
  const [template] = await db.select().from(exportTemplates).where(eq(exportTemplates.id, run.templateId!));
  if (!template) {
    await db.update(exportRuns).set({ status: 'failed', finishedAt: clock.now(), message: 'The template was removed before the run began.' }).where(eq(exportRuns.id, runId));
    return;
  }
  const definition = template.definition;
  const seen = template.cursorXid;
  const window = { from: run.mode === 'all' ? null : seen, to: await horizon(db) };
  const startedAt = clock.now();
  await db.update(exportRuns).set({ fromXid: window.from, toXid: window.to, format: definition.format }).where(eq(exportRuns.id, runId));

  const folder = await mkdtemp(path.join(tmpdir(), 'export-run-'));
  const file = path.join(folder, 'file');
  const key = runFileKey(template.id, runId, definition.format);
  const partKey = `${key}.part`;
  const bundleKey = bundleKeyOf(key);
  const bundleFile = path.join(folder, 'documents.zip');
  const bundle = definition.documents ? openBundle(db, storage, bundleFile) : null;
  try {
    const out = createWriteStream(file);
    const write = (text: string) => (out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve())));
    const headers = definition.columns.map((column) => column.header);
    const unmapped = new Map<string, number>();
    // A spreadsheet reads UTF-8 only after a byte-order mark; a loader wants none.
    if (definition.format === 'spreadsheet') await write('\ufeff');
    if (definition.format !== 'jsonl') await write(encodeRecords(definition.format, headers, [], true));
    let rows = 0;
    // At half the machine (pace.ts): the applicants saving meanwhile come first.
    const pacer = new Pacer();
    for await (const batch of windowRows(db, definition, window)) {
      await write(encodeRecords(definition.format, headers, batch.map((row) => templateRecord(definition, row, unmapped)), false));
      // Who left in this run: recorded as the batch is written, so the record never lags the file.
      await db.insert(exportRunApplicants).values(batch.map((row) => ({ runId, userId: row.user_id }))).onConflictDoNothing();
      await bundle?.add(batch);
      rows += batch.length;
      await hooks.afterBatch?.(rows);
      await pacer.breathe();
    }
    out.end();
    await finished(out);
    const { size } = await stat(file);
    await storage.putFile(partKey, file, contentTypeOf(definition.format));
    if (bundle) {
      await bundle.close();
      await storage.putFile(`${bundleKey}.part`, bundleFile, 'application/zip');
    }
    await hooks.afterStored?.();

    const moved = await db.transaction(async (tx) => {
      // The run's row first: an erasure withdrawing the runs that carried its applicant waits for this commit, or this waits for it.
      await tx.select({ id: exportRuns.id }).from(exportRuns).where(eq(exportRuns.id, runId)).for('update');
      if (await erasedCarried(tx, runId)) {
        await tx.update(exportRuns).set({ status: 'failed', finishedAt: clock.now(), rows, message: ERASED_WHILE_RUNNING }).where(eq(exportRuns.id, runId));
        return null;
      }
      const cursorIsWhereItWas = run.mode === 'all' ? sql`true` : seen === null ? sql`cursor_xid is null` : sql`cursor_xid = ${seen}::xid8`;
      // `all` moves the cursor forward only: a run of changes that ended first may have taken it further.
      const next = run.mode === 'all' ? sql`greatest(coalesce(cursor_xid, ${window.to}::xid8), ${window.to}::xid8)` : sql`${window.to}::xid8`;
      const updated = rowsOf<{ id: number }>(await tx.execute(sql`update ${exportTemplates} set cursor_xid = ${next}, cursor_at = ${startedAt} where id = ${template.id} and ${cursorIsWhereItWas} returning id`));
      if (updated.length === 0) {
        await tx.update(exportRuns).set({ status: 'superseded', finishedAt: clock.now(), rows, message: 'Another run of this template moved its cursor first; these changes are in that run or the next.' }).where(eq(exportRuns.id, runId));
        return null;
      }
      await tx
        .update(exportRuns)
        .set({
          status: 'succeeded',
          finishedAt: clock.now(),
          rows,
          bytes: size,
          fileKey: key,
          fileName: `${slug(definition.name)}-${runId}.${FILE_EXTENSIONS[definition.format]}`,
          bundleFileName: bundle ? `${slug(definition.name)}-${runId}-documents.zip` : null,
          unmapped: Object.fromEntries(unmapped),
        })
        .where(eq(exportRuns.id, runId));
      // Earlier runs still marked running were killed: what they held is in this one.
      return tx
        .update(exportRuns)
        .set({ status: 'failed', finishedAt: clock.now(), message: 'Stopped before it finished; its changes left in a later run.' })
        .where(and(eq(exportRuns.templateId, template.id), eq(exportRuns.status, 'running'), lt(exportRuns.id, runId)))
        .returning({ id: exportRuns.id, format: exportRuns.format });
    });
    if (!moved) {
      await deleteParts(storage, key);
      return;
    }
    // A killed run's stored `.part` files, if it got that far, never take a final name.
    for (const killed of moved) await deleteParts(storage, runFileKey(template.id, killed.id, killed.format));
    await hooks.afterCommit?.();
    await publish(deps, runId, key);
  } catch (error) {
    const unmappedValue = error instanceof UnmappedValue;
    await db
      .update(exportRuns)
      .set({ status: 'failed', finishedAt: clock.now(), message: unmappedValue ? error.message : failureMessage(error) })
      .where(and(eq(exportRuns.id, runId), eq(exportRuns.status, 'running')));
    await deleteParts(storage, key).catch(() => {});
    // The template said to fail: done, and trying again would fail the same way.
    if (!unmappedValue) throw error;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Whether a run carried an applicant who is no longer there (erased while it ran): such a run must not succeed. */
async function erasedCarried(tx: Db, runId: number): Promise<boolean> {
  const [row] = rowsOf<{ gone: boolean }>(
    await tx.execute(sql`select exists (select 1 from ${exportRunApplicants} r where r.run_id = ${runId} and not exists (select 1 from ${users} u where u.id = r.user_id)) as gone`),
  );
  return Boolean(row?.gone);
}

/**
 * What the operator reads on a failed run: the cause in words, never the server's own text (its
 * temporary paths, a driver's message: issue 49, item 12). The error itself goes to the log.
 */
export const runFailureMessages = {
  storage: 'Stopped: the server ran out of space (or could not write) while storing the file. Free space and run it again; its changes leave in the next run.',
  database: 'Stopped: the database was not available for a moment. Run it again; its changes leave in the next run.',
  other: 'Stopped by an error on the server (its log has the details). Run it again; its changes leave in the next run.',
} as const;

const failureMessage = (error: unknown): string => runFailureMessages[unavailableReason(error) ?? 'other'];

/** The documents' zip of a run, beside its file. */
export const bundleKeyOf = (key: string) => key.replace(/\.[a-z]+$/, '.zip');

async function deleteParts(storage: Storage, key: string): Promise<void> {
  await storage.delete(`${key}.part`);
  await storage.delete(`${bundleKeyOf(key)}.part`);
}

/** Gives a succeeded run's files their final names (idempotent: after a crash a `.part` may be gone already). */
async function publish(deps: { db: Db; storage: Storage }, runId: number, key: string): Promise<void> {
  // The zip first: a loader that sees the file may look for its documents.
  // A part moved before a crash (or a run with no zip) has nothing left to move.
  for (const final of [bundleKeyOf(key), key]) await deps.storage.move(`${final}.part`, final);
  await deps.db.update(exportRuns).set({ published: true }).where(eq(exportRuns.id, runId));
}

/** Succeeded runs whose file did not take its final name (the process died between): finished now. */
export async function publishPendingRuns(deps: { db: Db; storage: Storage }): Promise<number> {
  const pending = await deps.db
    .select({ id: exportRuns.id, fileKey: exportRuns.fileKey })
    .from(exportRuns)
    .where(and(eq(exportRuns.status, 'succeeded'), eq(exportRuns.published, false)));
  for (const run of pending) await publish(deps, run.id, run.fileKey!);
  return pending.length;
}
