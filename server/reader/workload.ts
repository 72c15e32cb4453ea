import { sql } from 'drizzle-orm';
import { staffRoleCovers } from '../../domain/staff';
import type { components } from '../../generated/api';
import { rowsOf, type Db } from '../infra/db';
import { assignments, reviews, staffUsers } from '../infra/schema';
import type { StaffSession } from '../office/sessions';

type Workload = components['schemas']['StaffDashboard']['workload'];

/** The days a reader's work is shown for: today and the 13 before. */
const DAYS = 14;

/**
 * Each reader's reviews signed per day and files open at each day's end (issue 51 §1), for the
 * dashboard. Open is counted from the assignments as they stand: given before the day ended and not
 * reviewed by then (each assignment's two dates, summed over the days: one pass, not one per day).
 * A reader sees their own line; deciders and administrators everyone's.
 */
export async function readerWorkload(db: Db, staff: Pick<StaffSession, 'staffId' | 'role'>): Promise<Workload> {
  const everyone = staffRoleCovers(staff.role, 'decider');
  const rows = rowsOf<{ email: string; date: string; reviewed: number; open: number; open_now: number }>(
    await db.execute(sql`
      with span as (
        select day::date from generate_series((now() at time zone 'UTC')::date - ${DAYS - 1}::int, (now() at time zone 'UTC')::date, interval '1 day') day
      ),
      first_day as (select min(day) as day from span),
      -- One pass over the assignments: per member and day, +1 for each file given, -1 for each
      -- reviewed (those before the first day counted on it), and how many are open now.
      given as (
        select g.staff_id, greatest((g.assigned_at at time zone 'UTC')::date, f.day) as given_on,
          case when g.reviewed_at is not null then greatest((g.reviewed_at at time zone 'UTC')::date, f.day) end as reviewed_on
        from ${assignments} g, first_day f
        ${everyone ? sql`` : sql`where g.staff_id = ${staff.staffId}`}
      ),
      moved as (
        select staff_id, day, sum(delta)::int as delta from (
          select staff_id, given_on as day, 1 as delta from given
          union all
          select staff_id, reviewed_on, -1 from given where reviewed_on is not null
        ) moves group by 1, 2
      ),
      open_now as (select staff_id, count(*) filter (where reviewed_on is null)::int as n from given group by 1),
      members as (
        select s.id, s.email from ${staffUsers} s
        where ${everyone ? sql`(s.role = 'reader' or s.id in (select staff_id from open_now))` : sql`s.id = ${staff.staffId}`}
      ),
      signed as (
        select r.staff_id, (r.submitted_at at time zone 'UTC')::date as day, count(*)::int as n from ${reviews} r, first_day f
        where r.submitted_at >= f.day ${everyone ? sql`` : sql`and r.staff_id = ${staff.staffId}`} group by 1, 2
      )
      select m.email, to_char(span.day, 'YYYY-MM-DD') as date, coalesce(signed.n, 0) as reviewed,
        (sum(coalesce(moved.delta, 0)) over (partition by m.id order by span.day))::int as open,
        coalesce(open_now.n, 0) as open_now
      from members m cross join span
      left join open_now on open_now.staff_id = m.id
      left join moved on moved.staff_id = m.id and moved.day = span.day
      left join signed on signed.staff_id = m.id and signed.day = span.day
      order by m.email, span.day`),
  );
  const byReader = new Map<string, Workload[number]>();
  for (const row of rows) {
    const line = byReader.get(row.email) ?? { email: row.email, open: Number(row.open_now), reviewed: 0, days: [] };
    line.days.push({ date: row.date, reviewed: Number(row.reviewed), open: Math.max(0, Number(row.open)) });
    line.reviewed += Number(row.reviewed);
    byReader.set(row.email, line);
  }
  return [...byReader.values()];
}
