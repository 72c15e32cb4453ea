import { shownLabel } from '../../domain/rules/choiceLabels';
import { Readable } from 'node:stream';
import { eq, sql, type SQL } from 'drizzle-orm';
import { answerKeys, documentKeys } from '../../domain/catalogue';
import { staffMessages } from '../../domain/staff';
import type { Handlers } from '../http/handler';
import { rowsOf, type Db } from '../infra/db';
import { applications, documents, exportRunApplicants, exportRuns, users } from '../infra/schema';
import { clock } from '../infra/clock';
import { recordAudit } from '../office/audit';
import { notConflictedList } from '../office/conflicts';
import { staffCall } from '../office/sessions';
import { HttpError } from '../http/errors';
import { spreadsheetCsv } from '../office/spreadsheet';

/** The spreadsheet export's name on its run's record. */
const SPREADSHEET_EXPORT = 'Everything, for a spreadsheet';

/** Rows fetched per query: the export holds one batch at a time, whatever the number of applications. */
const BATCH = 500;

type ExportRow = { id: string; email: string; submitted_at: Date | string; answer: Record<string, string | number | boolean | null>; files: Record<string, string> | null };

/** The export's columns: who and when, then every answer key of the catalogue in form order (each choice's `_desc` beside it). */
const exportColumns: readonly string[] = ['id', 'email', 'submitted_at', ...answerKeys];
const documentKeySet = new Set(documentKeys);

/** The first and last instants a timestamptz holds on both drivers (PGlite writes a Date as ISO text, and year 0 is not in its calendar). */
const FIRST_INSTANT = new Date('0001-01-01T00:00:00Z');
const LAST_INSTANT = new Date('9999-12-31T23:59:59.999Z');

/** A range bound before year 1 is the start of time, after 9999 the end of it: the same rows, not a 500. */
function withinDatabaseCalendar(bound: Date): Date {
  return bound < FIRST_INSTANT ? FIRST_INSTANT : bound > LAST_INSTANT ? LAST_INSTANT : bound;
}

/** Submitted applications in submitted order, a batch at a time (keyset paging: no offset to walk). */
async function* submittedApplications(db: Db, range: { from?: Date; to?: Date }, visible: SQL): AsyncGenerator<ExportRow> {
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const filters: SQL[] = [sql`a.submitted_at is not null`, visible];
    if (range.from) filters.push(sql`a.submitted_at >= ${range.from}`);
    if (range.to) filters.push(sql`a.submitted_at < ${range.to}`);
    if (after) filters.push(sql`(a.submitted_at, a.user_id) > (${after.at}::timestamptz, ${after.id}::uuid)`);
    const batch = rowsOf<ExportRow & { cursor_at: string }>(
      await db.execute(sql`
        select a.user_id as id, u.username as email, a.submitted_at, a.answer,
          to_char(a.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at,
          (select json_object_agg(d.answer_key, d.file_name) from ${documents} d where d.user_id = a.user_id and d.status = 'completed') as files
        from ${applications} a join ${users} u on u.id = a.user_id
        where ${sql.join(filters, sql` and `)}
        order by a.submitted_at asc nulls first, a.user_id asc nulls first
        limit ${BATCH}`),
    );
    for (const row of batch) yield row;
    if (batch.length < BATCH) return;
    const last = batch.at(-1)!;
    after = { at: last.cursor_at, id: last.id };
  }
}

/** One application as the export's flat record: the catalogue's keys, documents by file name. */
function flatRecord(row: ExportRow): Record<string, string | number | boolean | null> {
  const record: Record<string, string | number | boolean | null> = { id: row.id, email: row.email, submitted_at: new Date(row.submitted_at).toISOString() };
  for (const key of answerKeys) record[key] = documentKeySet.has(key) ? (row.files?.[key] ?? null) : (row.answer[key] ?? null);
  // Each label as the catalogue has it: answers stored before the server wrote them (issue 28)
  // may carry a browser's.
  for (const key of answerKeys) {
    const label = key.endsWith('_desc') ? shownLabel(key.slice(0, -'_desc'.length), row.answer) : null;
    if (label) record[key] = label;
  }
  return record;
}

export function exportHandlers(db: Db) {
  return {
    exportApplications: staffCall<'exportApplications'>('admin', async (request, reply, staff) => {
      const { format, from, to } = request.query;
      const range = { from: from ? new Date(from) : undefined, to: to ? new Date(to) : undefined };
      if (range.from && range.to && range.to <= range.from) throw new HttpError(400, staffMessages.rangeBackwards, { errors: { to: [staffMessages.rangeBackwards] } });
      if (range.from) range.from = withinDatabaseCalendar(range.from);
      if (range.to) range.to = withinDatabaseCalendar(range.to);
      // The disclosure record (issue 32): a run of its own, holding each applicant as it leaves and the rows at the end.
      const [run] = await db
        .insert(exportRuns)
        .values({ templateId: null, templateName: SPREADSHEET_EXPORT, format: format === 'csv' ? 'spreadsheet' : 'jsonl', mode: 'all', status: 'running', startedBy: staff.email, startedAt: clock.now() })
        .returning({ id: exportRuns.id });
      const runId = run!.id;
      // A member's download is a list like the others: without the applications they declared a conflict with (issue 49, item 4).
      const visible = await notConflictedList(db, staff.staffId);
      await recordAudit(db, { staff: { id: staff.staffId, email: staff.email }, action: 'export', detail: { format, from: from ?? null, to: to ?? null, run: runId }, ip: request.ip });
      const records = Readable.from((async function* () {
        let rows = 0;
        let leaving: string[] = [];
        let ended = false;
        const record = async () => {
          if (leaving.length) await db.insert(exportRunApplicants).values(leaving.map((userId) => ({ runId, userId }))).onConflictDoNothing();
          leaving = [];
        };
        try {
          for await (const row of submittedApplications(db, range, visible)) {
            leaving.push(row.id);
            if (leaving.length === BATCH) await record();
            rows++;
            yield flatRecord(row);
          }
          await record();
          ended = true;
        } finally {
          // Stopped early (the download broken off): what was read is recorded, and the run says so.
          if (!ended) await record().catch(() => {});
          await db
            .update(exportRuns)
            .set({ status: ended ? 'succeeded' : 'failed', published: ended, rows, finishedAt: clock.now(), message: ended ? 'Downloaded as it was written.' : 'The download stopped before its end.' })
            .where(eq(exportRuns.id, runId));
        }
      })());
      const stamp = new Date().toISOString().slice(0, 10);
      reply.header('content-disposition', `attachment; filename="applications-${stamp}.${format}"`).header('cache-control', 'private, no-store');
      if (format === 'jsonl') {
        const lines = records.map((record) => `${JSON.stringify(record)}\n`);
        return reply.type('application/jsonl; charset=utf-8').code(200).send(lines);
      }
      const csv = spreadsheetCsv(exportColumns);
      records.on('error', (error) => csv.destroy(error));
      records.pipe(csv);
      return reply.type('text/csv; charset=utf-8').code(200).send(csv);
    }),
  } satisfies Handlers;
}
