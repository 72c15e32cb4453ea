import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { documentKeys, readerLabelOf } from '../../domain/catalogue';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import type { Storage } from '../infra/storage';
import { rowsOf, type Db } from '../infra/db';
import { applicationScores, applications, assignments, auditLog, bins, decisions, documents, logins, pdfCopies, reviews, users, webStatusEvents } from '../infra/schema';
import { prefixQuery } from '../office/searchText';
import { correctionsOf } from './corrections';
import { withdrawalOf } from './withdrawal';
import { mergedFrom } from './duplicates';
import { foldName } from '../office/searchFold';
import { APPLICATION_DOCUMENT_NAME, downloadNameOf, questionOf } from '../office/downloadName';
import { sendPdfDownload } from '../http/download';
import { serviceViewOf } from '../office/applicationView';
import { recordAudit } from '../office/audit';
import { notesOf } from './notes';
import { reviewsFor } from './reviews';
import { readerWorkload } from './workload';
import { applicationScoresOf, scaleOrderOf, scoreSummaryOf } from './scores';
import { scoreMeasureOf } from '../../domain/scores';
import { staffMessages, staffRoleCovers } from '../../domain/staff';
import { placementOf } from './workflow';
import { checklistFilters } from './checklist';
import { checklistOfApplication } from '../office/checklist';
import { notConflictedList } from '../office/conflicts';
import { staffCall, type StaffSession } from '../office/sessions';
import { HttpError } from '../http/errors';

type Summary = components['schemas']['ApplicationSummary'];
type WebStatus = components['schemas']['WebStatus'];
type TimelineEntry = components['schemas']['TimelineEntry'];

/** `%`, `_` and `\` typed into a search are letters, not patterns. */
const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A birth date as typed (2008-04-17, 4/17/2008), as stored (YYYY-MM-DD), or null. */
function birthDateOf(q: string): string | null {
  const iso = q.match(/^(\d{4})-(\d{1,2})-(\d{1,2})$/);
  const us = q.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/);
  const [year, month, day] = iso ? [iso[1], iso[2], iso[3]] : us ? [us[3], us[1], us[2]] : [];
  if (!year || !month || !day) return null;
  return `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/** How many digits make a search a phone number. */
const PHONE_DIGITS_MIN = 7;

/**
 * The search as SQL, a union of ids, each side on its own index where the list is searched most:
 * every folded word starts a word of the applicant's names or school, in any script (the GIN index
 * on `staff_names` folded by `staff_names_fold`, migrations 0031 and 0051), or the text starts the e-mail
 * address (the `text_pattern_ops` index on users). Digits alone are also an application number;
 * a date, a birth date (an index of its own); seven digits or more in a phone's characters, part
 * of a phone number (a scan of the narrow `phone_digits` column, not of the answers).
 */
function searchFilter(q: string): SQL {
  const typed = q.trim();
  const email = likePrefix(typed.toLowerCase());
  const words = prefixQuery(foldName(typed));
  const sides: SQL[] = [sql`select id from ${users} where username like ${email}`];
  if (words) sides.push(sql`select user_id from ${applications} where to_tsvector('simple', staff_names_fold(staff_names)) @@ to_tsquery('simple', ${words})`);
  if (/^\d{1,9}$/.test(typed)) sides.push(sql`select user_id from ${applications} where application_number = ${Number(typed)}`);
  const born = birthDateOf(typed);
  if (born) sides.push(sql`select user_id from ${applications} where birth_date = ${born}`);
  const digits = typed.replace(/\D/g, '');
  // A phone's digits, or their end, within one of the three numbers (`phone_digits` keeps them apart with `|`).
  if (/^[+\d\s().-]+$/.test(typed) && digits.length >= PHONE_DIGITS_MIN) sides.push(sql`select user_id from ${applications} where phone_digits like ${`%${digits}%`}`);
  return sql`a.user_id in (${sql.join(sides, sql` union `)})`;
}

/** A breakdown's group for an application that has not answered the question. */
const NOT_ANSWERED = 'Not answered';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

type StaffDecision = components['schemas']['StaffDecision'];

/** What the reader's calls need; the decision and the PDF copy are other areas', given by the root (server/app.ts). */
export interface StaffApplicationDeps {
  db: Db;
  storage: Storage;
  /** The application's decision as staff read it (server/decisions). */
  decisionOf: (userId: string) => Promise<StaffDecision | null>;
  /** Queues the application's PDF copy again (server/pdf). */
  requestPdfCopy: (userId: string) => Promise<void>;
}

interface ListQuery {
  entry_term?: string;
  q?: string;
  bin?: number;
  queue?: 'mine';
  checklist?: 'complete' | 'incomplete';
  missing?: string;
  score?: string;
  score_min?: number;
  score_max?: number;
  major?: string;
  place?: string;
  school?: string;
  decision?: 'admit' | 'deny' | 'waitlist' | 'defer' | 'none';
  reply?: 'accept' | 'decline' | 'none';
}

/** A member's view of the scores: deciders and administrators see every one; a reader not those of a blind bin's file they have not reviewed (domain/reviews.ts reviewsVisible). */
const scoresVisible = (staff: Pick<StaffSession, 'staffId' | 'role'>): SQL | null =>
  staffRoleCovers(staff.role, 'decider')
    ? null
    : sql`(a.bin_id is null or not (select b.blind from ${bins} b where b.id = a.bin_id) or exists (select 1 from ${reviews} r where r.user_id = a.user_id and r.staff_id = ${staff.staffId}))`;

/** The score a list sorts and filters by, over the scores joined as `s`; null where the member may not see it. */
function scoreOf(query: ListQuery, staff: Pick<StaffSession, 'staffId' | 'role'>): SQL {
  // The contract's pattern admits only what scoreMeasureOf reads.
  const measure = scoreMeasureOf(query.score ?? 'composite') ?? { kind: 'composite' };
  const value =
    measure.kind === 'composite'
      ? sql`s.composite`
      : measure.kind === 'reviews'
        ? sql`coalesce(s.reviews, 0)`
        : measure.kind === 'mean'
          ? sql`(s.means->>${measure.name})::float8`
          : sql`coalesce((s.recommendations->>${measure.name})::int, 0)`;
  const visible = scoresVisible(staff);
  return visible ? sql`(case when ${visible} then ${value} end)` : value;
}

/** Whether a list reads the scores: sorted or filtered by one. */
const readsScores = (query: ListQuery & { sort?: string }) => query.score_min !== undefined || query.score_max !== undefined || query.sort === 'score_desc' || query.sort === 'score_asc';

/** The applications, joined to their scores where the list reads them. */
const source = (withScores: boolean) => (withScores ? sql`${applications} a left join ${applicationScores} s on s.user_id = a.user_id` : sql`${applications} a`);

/**
 * The list's filters that its counts share: the entry term, the search, the bin and the member's
 * queue. The queue's ids are read first and named in the filter: as a subquery, the planner
 * walked the whole submitted-date index looking for a page of an empty queue (150 ms at 100,000).
 */
export async function listFilters(db: Db, query: ListQuery, staff: Pick<StaffSession, 'staffId' | 'role'>): Promise<SQL[]> {
  const staffId = staff.staffId;
  // `listed` (issue 33): "started" is an account that has answered something (issue 32), one that
  // only signed in is not an application yet; a duplicate merged into another record is shown on
  // that record, not in the list. One column, for the list's partial indexes.
  const filters: SQL[] = [await notConflictedList(db, staffId), sql`a.listed`];
  if (query.entry_term) filters.push(sql`a.entry_term = ${query.entry_term}`);
  if (query.q?.trim()) filters.push(searchFilter(query.q));
  if (query.bin !== undefined) filters.push(query.bin === 0 ? sql`a.bin_id is null` : sql`a.bin_id = ${query.bin}`);
  // A queue or a bin is work to do: an application withdrawn at the applicant's request leaves it
  // (issue 51); the whole list still shows it, and the application says it was withdrawn.
  if (query.bin !== undefined || query.queue === 'mine') filters.push(sql`a.withdrawn_at is null`);
  if (query.queue === 'mine') {
    const open = await db.select({ userId: assignments.userId }).from(assignments).where(and(eq(assignments.staffId, staffId), isNull(assignments.reviewedAt)));
    // A Postgres array literal of ids read from the database (uuids: nothing to escape).
    filters.push(sql`a.user_id = any(${`{${open.map((row) => row.userId).join(',')}}`}::uuid[])`);
  }
  // What a report's figure opens (issue 51 §1): the groups it counts by.
  if (query.major) filters.push(sql`a.major = ${query.major}`);
  if (query.place) filters.push(sql`a.place = ${query.place}`);
  if (query.school) filters.push(sql`a.school = ${query.school}`);
  if (query.decision) filters.push(query.decision === 'none' ? sql`a.user_id not in (select user_id from ${decisions})` : sql`a.user_id in (select user_id from ${decisions} where decision = ${query.decision})`);
  // `none`: a released admission without a reply yet, as the report counts it.
  if (query.reply) filters.push(sql`a.user_id in (select user_id from ${decisions} where decision = 'admit' and release_at <= now() and ${query.reply === 'none' ? sql`reply is null` : sql`reply = ${query.reply}`})`);
  // A range of a score leaves out the applications without one (issue 51 §1).
  if (query.score_min !== undefined) filters.push(sql`${scoreOf(query, staff)} >= ${query.score_min}`);
  if (query.score_max !== undefined) filters.push(sql`${scoreOf(query, staff)} <= ${query.score_max}`);
  return [...filters, ...checklistFilters(query)];
}

const where = (filters: SQL[]) => (filters.length ? sql`where ${sql.join(filters, sql` and `)}` : sql``);

/**
 * The list's counts by status, in one pass without parallel workers (issue 33): at 100,000 the
 * planner scans in parallel, and starting its workers took 70 of the 100 ms a count took on two
 * cores; the scan alone takes 27 ms.
 */
const countQuery = (db: Db, filters: SQL[], withScores: boolean) =>
  db.transaction(async (tx) => {
    await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
    return tx.execute(sql`select a.status, count(*)::int as n from ${source(withScores)} ${where(filters)} group by a.status`);
  });

function countsOf(result: unknown): Record<WebStatus, number> {
  const counts = { started: 0, validating: 0, submitted: 0 };
  for (const row of rowsOf<{ status: WebStatus; n: number }>(result)) counts[row.status] = Number(row.n);
  return counts;
}

export function staffApplicationHandlers(deps: StaffApplicationDeps) {
  const { db, storage } = deps;
  const audit = (staff: StaffSession, ip: string, action: Parameters<typeof recordAudit>[1]['action'], applicationId: string, detail?: Record<string, string>) =>
    recordAudit(db, { staff: { id: staff.staffId, email: staff.email }, action, applicationId, detail, ip });

  return {
    listApplications: staffCall<'listApplications'>('reader', async (request, reply, staff) => {
      const { status, entry_term, q, bin, queue, checklist, missing, sort = 'submitted_desc', page = 1, page_size = 25 } = request.query;
      const common = await listFilters(db, request.query, staff);
      const listed = status ? [...common, sql`a.status = ${status}`] : common;
      const score = scoreOf(request.query, staff);
      const order =
        sort === 'score_desc'
          ? sql`${score} desc nulls last, a.user_id desc`
          : sort === 'score_asc'
            ? sql`${score} asc nulls last, a.user_id`
            : sort === 'submitted_asc'
              ? sql`a.submitted_at asc nulls last, a.user_id`
              : sql`a.submitted_at desc nulls last, a.user_id desc nulls last`;
      const withScores = readsScores(request.query);
      const visible = scoresVisible(staff) ?? sql`true`;
      const [items, counted, scaleOrder] = await Promise.all([
        // The page is cut from the applications alone (on the index of the order), then joined to
        // its 25 accounts: an offset deep into the list skips rows, not joins.
        db.execute(sql`
          select a.user_id as id, u.username as email, a.status, a.submitted_at,
            concat_ws(' ', nullif(a.answer->>'first_name', ''), nullif(a.answer->>'last_name', '')) as name,
            coalesce(nullif(a.answer->>'entry_term_desc', ''), a.answer->>'entry_term') as entry_term,
            coalesce(nullif(a.answer->>'applied_major_desc', ''), a.answer->>'applied_major') as intended_major,
            a.answer->>'hs_name' as high_school,
            (select b.name from ${bins} b where b.id = a.bin_id) as bin,
            ${visible} as scores_visible, s.reviews, s.means, s.recommendations, s.composite
          from (
            select a.user_id from ${source(withScores)} ${where(listed)}
            order by ${order}
            limit ${page_size} offset ${(page - 1) * page_size}
          ) paged
          join ${applications} a on a.user_id = paged.user_id
          join ${users} u on u.id = a.user_id
          left join ${applicationScores} s on s.user_id = a.user_id
          order by ${order}`),
        countQuery(db, common, withScores),
        scaleOrderOf(db),
      ]);
      const counts = countsOf(counted);
      const total = status ? counts[status] : counts.started + counts.validating + counts.submitted;
      type ScoreColumns = { scores_visible: boolean; reviews: number | null; means: Record<string, number> | null; recommendations: Record<string, number> | null; composite: number | null };
      const rows = rowsOf<Omit<Summary, 'submitted_at' | 'scores'> & { submitted_at: Date | string | null } & ScoreColumns>(items);
      // A page shows names and e-mails: one entry per page, with the ids it showed (issue 29, item 8).
      await recordAudit(db, {
        staff: { id: staff.staffId, email: staff.email },
        action: 'applications_list',
        detail: {
          q: q?.trim().slice(0, 200) || null,
          status: status ?? null,
          entry_term: entry_term ?? null,
          bin: bin ?? null,
          queue: queue ?? null,
          checklist: checklist ?? null,
          missing: missing ?? null,
          ...Object.fromEntries((['major', 'place', 'school', 'decision', 'reply'] as const).flatMap((key) => (request.query[key] ? [[key, request.query[key]!]] : []))),
          ...(withScores ? { score: request.query.score ?? 'composite', score_min: request.query.score_min ?? null, score_max: request.query.score_max ?? null, sort } : {}),
          page,
          ids: rows.map((row) => row.id),
        },
        ip: request.ip,
      });
      return reply.code(200).send({
        total,
        page,
        page_size,
        counts,
        items: rows.map(({ scores_visible, reviews: reviewCount, means, recommendations, composite, ...row }) => ({
          ...row,
          name: row.name || '(no name yet)',
          submitted_at: iso(row.submitted_at),
          scores: scores_visible ? scoreSummaryOf(reviewCount === null ? null : { reviews: reviewCount, means: means!, recommendations: recommendations!, composite }, scaleOrder) : null,
        })),
      });
    }),

    // Counts only, no applicant's data: not a disclosure, so not in the audit log (the list page it leads to is).
    countApplications: staffCall<'countApplications'>('reader', async (request, reply, staff) => {
      return reply.code(200).send(countsOf(await countQuery(db, await listFilters(db, request.query, staff), readsScores(request.query))));
    }),

    getStaffApplication: staffCall<'getStaffApplication'>('reader', async (request, reply, staff) => {
      const userId = request.params.id;
      const [view, [application], docs, [copy], timeline, notes, decision, placement] = await Promise.all([
        serviceViewOf(db, userId),
        db
          .select({
            userId: applications.userId,
            status: applications.status,
            submittedAt: applications.submittedAt,
            answer: applications.answer,
            withdrawnAt: applications.withdrawnAt,
            withdrawnReason: applications.withdrawnReason,
            withdrawnBy: applications.withdrawnBy,
            mergedInto: applications.mergedInto,
          })
          .from(applications)
          .where(eq(applications.userId, userId)),
        db.select().from(documents).where(eq(documents.userId, userId)),
        db.select().from(pdfCopies).where(eq(pdfCopies.userId, userId)),
        timelineOf(db, userId),
        notesOf(db, userId),
        deps.decisionOf(userId),
        placementOf(db, userId),
      ]);
      if (!view || !application) throw new HttpError(404, staffMessages.applicationNotFound);
      const [read, checklist, corrections, duplicates, scores, openBy] = await Promise.all([
        reviewsFor(db, userId, staff, placement.bin?.blind ?? false),
        checklistOfApplication(db, application),
        correctionsOf(db, userId),
        mergedFrom(db, userId),
        applicationScoresOf(db, userId),
        openByOthers(db, userId, staff.staffId),
      ]);
      docs.sort((a, b) => documentKeys.indexOf(a.answerKey) - documentKeys.indexOf(b.answerKey));
      // Recorded before the answers leave: a view that is not recorded does not happen.
      await audit(staff, request.ip, 'application_view', userId);
      return reply.code(200).send({
        id: userId,
        status: application.status,
        submitted_at: iso(application.submittedAt),
        view,
        documents: docs.map((d) => ({ key: d.answerKey, label: readerLabelOf(d.answerKey), file_name: d.fileName, file_size: d.fileSize ?? 0, status: d.status })),
        pdf: copy ? { status: copy.status, ...(copy.message ? { message: copy.message } : {}) } : { status: 'NOT_ANSWERED' },
        timeline,
        notes,
        decision,
        bin: placement.bin,
        assignments: placement.assignments,
        reviews: read.reviews,
        reviews_hidden: read.hidden,
        // Where the reviews are hidden, so is what they add up to.
        scores: read.hidden ? null : scores,
        checklist,
        corrections,
        withdrawal: withdrawalOf(application),
        merged_into: application.mergedInto,
        merged_from: duplicates,
        open_by: openBy,
      });
    }),

    downloadStaffDocument: staffCall<'downloadStaffDocument'>('reader', async (request, reply, staff) => {
      const { id, key } = request.params;
      const [row] = await db.select().from(documents).where(and(eq(documents.userId, id), eq(documents.answerKey, key)));
      const bytes = row?.status === 'completed' && row.pdfKey ? await storage.get(row.pdfKey) : null;
      if (!row || !bytes) throw new HttpError(404, staffMessages.documentNotFound);
      const inline = request.query.view === 'inline';
      await audit(staff, request.ip, inline ? 'document_view' : 'document_download', id, { key, file_name: row.fileName });
      return sendPdfDownload(reply, bytes, await downloadNameOf(db, id, questionOf(key)), inline ? 'inline' : 'attachment');
    }),

    downloadStaffPdfCopy: staffCall<'downloadStaffPdfCopy'>('reader', async (request, reply, staff) => {
      const { id } = request.params;
      const [row] = await db.select().from(pdfCopies).where(eq(pdfCopies.userId, id));
      const bytes = row?.status === 'COMPLETED' && row.pdfKey ? await storage.get(row.pdfKey) : null;
      if (!bytes) throw new HttpError(404, staffMessages.pdfNotReady);
      await audit(staff, request.ip, 'pdf_download', id);
      return sendPdfDownload(reply, bytes, await downloadNameOf(db, id, APPLICATION_DOCUMENT_NAME));
    }),

    remakeStaffPdfCopy: staffCall<'remakeStaffPdfCopy'>('reader', async (request, reply, staff) => {
      const { id } = request.params;
      const [application] = await db.select({ submittedAt: applications.submittedAt }).from(applications).where(eq(applications.userId, id));
      if (!application) throw new HttpError(404, staffMessages.applicationNotFound);
      if (!application.submittedAt) throw new HttpError(409, staffMessages.notSubmitted);
      const [row] = await db.select().from(pdfCopies).where(eq(pdfCopies.userId, id));
      // A copy that is ready or on its way is left alone; a failed or missing one is made again.
      if (row && row.status !== 'FAILED') return reply.code(202).send({ status: row.status });
      await deps.requestPdfCopy(id);
      await audit(staff, request.ip, 'pdf_remake', id);
      return reply.code(202).send({ status: 'UNPROCESSED' });
    }),

    getStaffDashboard: staffCall<'getStaffDashboard'>('reader', async (request, reply, staff) => {
      const days = request.query.days ?? 90;
      await recordAudit(db, { staff: { id: staff.staffId, email: staff.email }, action: 'dashboard_view', detail: { days }, ip: request.ip });
      const [perDay, stopped, breakdown, workload] = await Promise.all([
        // Each count grouped once by day, then laid on the days (a count per day was a join per day: seconds at 100,000).
        db.execute(sql`
          with span as (select generate_series((now() at time zone 'UTC')::date - ${days - 1}::int, (now() at time zone 'UTC')::date, interval '1 day')::date as day),
          started as (
            select (u.created_at at time zone 'UTC')::date as day, count(*)::int as n from ${users} u join ${applications} a on a.user_id = u.id
            where u.confirmed_at is not null and a.answers_revision > 0 and u.created_at >= (now() at time zone 'UTC')::date - ${days - 1}::int group by 1),
          submitted as (
            select (a.submitted_at at time zone 'UTC')::date as day, count(*)::int as n from ${applications} a
            where a.submitted_at >= (now() at time zone 'UTC')::date - ${days - 1}::int group by 1)
          select to_char(span.day, 'YYYY-MM-DD') as date, coalesce(started.n, 0) as started, coalesce(submitted.n, 0) as submitted
          from span left join started using (day) left join submitted using (day) order by span.day`),
        db.execute(sql`select coalesce(last_page, 'none') as page, count(*)::int as count from ${applications} where submitted_at is null and answers_revision > 0 group by 1 order by 2 desc limit 20`),
        // One pass over the narrow columns the database keeps (grouping sets), each group's label as shown.
        db.execute(sql`
          with shown as (
            select a.submitted_at is not null as submitted, coalesce(a.entry_term, ${NOT_ANSWERED}) as term, coalesce(a.major, ${NOT_ANSWERED}) as major, coalesce(a.place, ${NOT_ANSWERED}) as place
            from ${applications} a where a.answers_revision > 0 or a.submitted_at is not null
          )
          select case when grouping(term) = 0 then 'term' when grouping(major) = 0 then 'major' else 'place' end as kind,
            coalesce(term, major, place) as label,
            count(*) filter (where not submitted)::int as started, count(*) filter (where submitted)::int as submitted
          from shown group by grouping sets ((term), (major), (place))
          order by count(*) desc, 2`),
        readerWorkload(db, staff),
      ]);
      const groups = rowsOf<{ kind: 'term' | 'major' | 'place'; label: string; started: number; submitted: number }>(breakdown);
      const byKind = (kind: 'term' | 'major' | 'place') =>
        groups
          .filter((group) => group.kind === kind)
          .slice(0, 50)
          .map((group) => ({ label: group.label.slice(0, 200), started: Number(group.started), submitted: Number(group.submitted) }));
      return reply.code(200).send({
        per_day: rowsOf<{ date: string; started: number; submitted: number }>(perDay).map((r) => ({ date: r.date, started: Number(r.started), submitted: Number(r.submitted) })),
        stopped_at: rowsOf<{ page: string; count: number }>(stopped).map((r) => ({ page: r.page, count: Number(r.count) })),
        by_term: byKind('term'),
        by_major: byKind('major'),
        by_place: byKind('place'),
        workload,
      });
    }),
  } satisfies Handlers;
}

/** How long an opened application counts as open to another member (issue 51 §4: "someone else has this open"). */
const OPEN_FOR_MINUTES = 10;

/** The other members who opened an application lately, from the audit log's views (its application index), the latest first. */
async function openByOthers(db: Db, userId: string, staffId: string): Promise<{ email: string; at: string }[]> {
  const rows = rowsOf<{ email: string; at: Date | string }>(
    await db.execute(sql`
      select staff_email as email, max(at) as at from ${auditLog}
      where application_id = ${userId} and action = 'application_view' and at > now() - make_interval(mins => ${OPEN_FOR_MINUTES})
        and staff_id is distinct from ${staffId}
      group by staff_email order by max(at) desc limit 50`),
  );
  return rows.map((row) => ({ email: row.email, at: new Date(row.at).toISOString() }));
}

/** Account created, confirmed, each sign-in and each status, in time order. */
async function timelineOf(db: Db, userId: string): Promise<TimelineEntry[]> {
  const [[user], signIns, statuses] = await Promise.all([
    db.select({ createdAt: users.createdAt, confirmedAt: users.confirmedAt }).from(users).where(eq(users.id, userId)),
    db.select({ at: logins.createdAt }).from(logins).where(eq(logins.userId, userId)).orderBy(asc(logins.id)),
    db.select({ at: webStatusEvents.createdAt, status: webStatusEvents.webStatus }).from(webStatusEvents).where(eq(webStatusEvents.userId, userId)),
  ]);
  if (!user) return [];
  const entries: { at: Date; event: TimelineEntry['event'] }[] = [
    { at: user.createdAt, event: 'account_created' },
    ...(user.confirmedAt ? [{ at: user.confirmedAt, event: 'confirmed' as const }] : []),
    ...signIns.map((s) => ({ at: s.at, event: 'signed_in' as const })),
    ...statuses.map((s) => ({ at: s.at, event: s.status })),
  ];
  return entries.sort((a, b) => a.at.getTime() - b.at.getTime()).map((e) => ({ at: e.at.toISOString(), event: e.event }));
}
