import { sql, type SQL } from 'drizzle-orm';
import { DECISION_NAMES, type Decision } from '../../domain/decisions';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import { rowsOf, type Db } from '../infra/db';
import { applicationScores, applications, bins, decisions } from '../infra/schema';
import { staffCall } from '../office/sessions';
import { listFilters } from './applications';

type ReportField = components['schemas']['ReportField'];

/** A group for an application with nothing to count it by. */
const NOT_ANSWERED = 'Not answered';
/** The most groups a report answers (a school report of a big cycle has thousands). */
const GROUPS_MAX = 2000;

/** Each field's value as the list filters by it (`by_value`), over the applications `a`, bins `b`, decisions `d` and scores' recommendations `r`. */
const VALUE: Record<ReportField, SQL> = {
  term: sql`a.entry_term`,
  major: sql`a.major`,
  place: sql`a.place`,
  school: sql`a.school`,
  bin: sql`b.id::text`,
  status: sql`a.status::text`,
  decision: sql`coalesce(d.decision, 'none')`,
  reply: sql`case when d.release_at <= now() and d.decision = 'admit' then coalesce(d.reply, 'none') end`,
  checklist: sql`case when a.checklist_missing is null then null when cardinality(a.checklist_missing) = 0 then 'complete' else 'incomplete' end`,
  recommendation: sql`r.recommendation`,
};

const STATUS_LABELS: Record<string, string> = { started: 'Started', validating: 'Checked for missing answers', submitted: 'Submitted' };
const REPLY_LABELS: Record<string, string> = { accept: 'Accepted', decline: 'Declined', none: 'No reply yet' };
const CHECKLIST_LABELS: Record<string, string> = { complete: 'Complete', incomplete: 'Still awaiting something' };

/** A group's label as the list shows the value. */
function labelOf(field: ReportField, value: string | null, binNames: Map<string, string>): string {
  if (value === null) return field === 'reply' ? 'No admission released' : field === 'recommendation' ? 'No reviews' : field === 'bin' ? 'No bin' : field === 'checklist' ? 'Not submitted' : NOT_ANSWERED;
  if (field === 'bin') return binNames.get(value) ?? value;
  if (field === 'status') return STATUS_LABELS[value] ?? value;
  if (field === 'decision') return value === 'none' ? 'No decision' : DECISION_NAMES[value as Decision];
  if (field === 'reply') return REPLY_LABELS[value] ?? value;
  if (field === 'checklist') return CHECKLIST_LABELS[value] ?? value;
  return value;
}

/**
 * Reports (issue 51 §1): applications counted by one or two fields with the list's filters, in one
 * GROUP BY over the narrow columns the list reads. A figure opens the list with the same filters.
 */
export function reportHandlers(db: Db) {
  return {
    getReport: staffCall<'getReport'>('reader', async (request, reply, staff) => {
      const { by, then } = request.query;
      const filters = await listFilters(db, request.query, staff);
      const source = sql`${applications} a
        left join ${bins} b on b.id = a.bin_id
        left join ${decisions} d on d.user_id = a.user_id
        left join ${applicationScores} s on s.user_id = a.user_id
        ${by === 'recommendation' || then === 'recommendation' ? sql`left join lateral jsonb_object_keys(coalesce(s.recommendations, '{}'::jsonb)) as r(recommendation) on true` : sql``}`;
      const where = sql.join(filters, sql` and `);
      const [grouped, [counted], binRows] = await Promise.all([
        db.execute(sql`
          select ${VALUE[by]} as by_value, ${then ? VALUE[then] : sql`null::text`} as then_value, count(*)::int as n
          from ${source} where ${where}
          group by 1, 2 order by 3 desc, 1 nulls last, 2 nulls last
          limit ${GROUPS_MAX}`),
        db.execute(sql`select count(*)::int as n from ${applications} a left join ${applicationScores} s on s.user_id = a.user_id where ${where}`).then(rowsOf<{ n: number }>),
        db.select({ id: bins.id, name: bins.name }).from(bins),
      ]);
      const binNames = new Map(binRows.map((bin) => [String(bin.id), bin.name]));
      return reply.code(200).send({
        by,
        then: then ?? null,
        total: Number(counted!.n),
        groups: rowsOf<{ by_value: string | null; then_value: string | null; n: number }>(grouped).map((row) => ({
          by: labelOf(by, row.by_value, binNames).slice(0, 200),
          by_value: row.by_value?.slice(0, 200) ?? null,
          then: then ? labelOf(then, row.then_value, binNames).slice(0, 200) : null,
          then_value: row.then_value?.slice(0, 200) ?? null,
          count: Number(row.n),
        })),
      });
    }),
  } satisfies Handlers;
}
