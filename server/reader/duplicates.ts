/**
 * Two records of one person (issue 32): the likely pairs, and a merge that keeps both histories.
 * A merge deletes nothing: the duplicate stays with its answers, documents and audit trail, marked
 * merged into the survivor and left out of the list; the survivor's page names it; it can be undone.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { staffMessages } from '../../domain/staff';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import { rowsOf, type Db } from '../infra/db';
import { applications, users } from '../infra/schema';
import { recordAudit } from '../office/audit';
import { conflictedAmong } from '../office/conflicts';
import { staffCall } from '../office/sessions';
import { HttpError } from '../http/errors';

export const mergeMessages = {
  reasonRequired: 'Say why these are one person.',
  same: 'A record cannot be merged into itself.',
  alreadyMerged: 'One of these records is merged already. Undo that merge first.',
  notMerged: 'This record is not merged into another.',
} as const;

type Pair = components['schemas']['DuplicateSide'];

/** The most pairs listed at once. */
const PAIRS_MAX = 100;

/**
 * The address a mailbox receives at: lower case, no `+tag`, and for Gmail no dots (they are
 * ignored there). Two records with one mailbox are one person, or one person's parent.
 */
const MAILBOX = sql.raw(`case when split_part(lower(u.username), '@', 2) in ('gmail.com', 'googlemail.com')
  then replace(regexp_replace(split_part(lower(u.username), '@', 1), '\\+.*$', ''), '.', '') || '@gmail.com'
  else regexp_replace(split_part(lower(u.username), '@', 1), '\\+.*$', '') || '@' || split_part(lower(u.username), '@', 2) end`);

export function duplicateHandlers(db: Db) {
  return {
    listDuplicates: staffCall<'listDuplicates'>('decider', async (request, reply, staff) => {
      // Two hash joins (an OR in one join would compare every pair), then their union.
      const rows = rowsOf<{ a: string; b: string; reason: 'name_and_birth_date' | 'email_variant' }>(
        await db.execute(sql`
          with people as (
            select a.user_id, lower(trim(coalesce(a.answer->>'first_name', ''))) as first, lower(trim(coalesce(a.answer->>'last_name', ''))) as last, a.birth_date, ${MAILBOX} as mailbox
            from ${applications} a join ${users} u on u.id = a.user_id
            where a.merged_into is null and (a.answers_revision > 0 or a.submitted_at is not null)
          )
          (select x.user_id as a, y.user_id as b, 'name_and_birth_date' as reason from people x join people y
            on x.first = y.first and x.last = y.last and x.birth_date = y.birth_date and x.user_id < y.user_id
            where x.first <> '' and x.last <> '' and x.birth_date is not null
            limit ${PAIRS_MAX})
          union all
          (select x.user_id, y.user_id, 'email_variant' from people x join people y on x.mailbox = y.mailbox and x.user_id < y.user_id limit ${PAIRS_MAX})`),
      );
      const pairs = new Map<string, { a: string; b: string; reasons: ('name_and_birth_date' | 'email_variant')[] }>();
      for (const row of rows) {
        const key = `${row.a}|${row.b}`;
        const pair = pairs.get(key) ?? { a: row.a, b: row.b, reasons: [] };
        pair.reasons.push(row.reason);
        pairs.set(key, pair);
      }
      // The conflict door holds here too: a pair with a record the member may not see is not listed (issue 49).
      const conflicted = await conflictedAmong(db, staff.staffId, [...new Set(rows.flatMap((row) => [row.a, row.b]))]);
      const listed = [...pairs.values()].filter((pair) => !conflicted.has(pair.a) && !conflicted.has(pair.b)).slice(0, PAIRS_MAX);
      const ids = [...new Set(listed.flatMap((pair) => [pair.a, pair.b]))];
      const sides = ids.length
        ? rowsOf<Pair & { id: string }>(
            await db.execute(sql`
              select a.user_id as id, concat_ws(' ', nullif(a.answer->>'first_name', ''), nullif(a.answer->>'last_name', '')) as name, u.username as email, a.status, a.birth_date
              from ${applications} a join ${users} u on u.id = a.user_id where a.user_id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`),
          )
        : [];
      const sideOf = new Map(sides.map((side) => [side.id, side]));
      // A list of applicants is a disclosure: on the record with the ids it showed, before it leaves.
      await recordAudit(db, { staff: { id: staff.staffId, email: staff.email }, action: 'duplicates_view', detail: { ids }, ip: request.ip });
      return reply.code(200).send({ pairs: listed.map((pair) => ({ a: sideOf.get(pair.a)!, b: sideOf.get(pair.b)!, reasons: pair.reasons })) });
    }),

    mergeApplications: staffCall<'mergeApplications'>('admin', async (request, reply, staff) => {
      const into = request.params.id;
      const from = request.body.duplicate;
      const reason = request.body.reason.trim();
      if (!reason) throw new HttpError(400, mergeMessages.reasonRequired, { errors: { reason: [mergeMessages.reasonRequired] } });
      if (into === from) throw new HttpError(409, mergeMessages.same);
      const outcome = await db.transaction(async (tx) => {
        const both = await tx
          .select({ userId: applications.userId, mergedInto: applications.mergedInto })
          .from(applications)
          .where(sql`${applications.userId} in (${into}::uuid, ${from}::uuid)`)
          .for('update');
        if (both.length !== 2) return 'missing' as const;
        if (both.some((row) => row.mergedInto)) return 'merged' as const;
        const [duplicateOfOthers] = await tx.select({ userId: applications.userId }).from(applications).where(eq(applications.mergedInto, from));
        if (duplicateOfOthers) return 'merged' as const;
        await tx.update(applications).set({ mergedInto: into, mergedAt: clock.now(), mergedReason: reason, mergedBy: staff.email }).where(eq(applications.userId, from));
        for (const applicationId of [into, from]) {
          await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'application_merge', applicationId, detail: { into, from, reason }, ip: request.ip });
        }
        return 'merged-now' as const;
      });
      if (outcome === 'missing') throw new HttpError(404, staffMessages.applicationNotFound);
      if (outcome === 'merged') throw new HttpError(409, mergeMessages.alreadyMerged);
      return reply.code(200).send({ merged_from: await mergedFrom(db, into) });
    }),

    unmergeApplication: staffCall<'unmergeApplication'>('admin', async (request, reply, staff) => {
      const from = request.params.id;
      const undone = await db.transaction(async (tx) => {
        const [row] = await tx.select({ into: applications.mergedInto }).from(applications).where(and(eq(applications.userId, from), isNotNull(applications.mergedInto))).for('update');
        if (!row) return false;
        await tx.update(applications).set({ mergedInto: null, mergedAt: null, mergedReason: null, mergedBy: null }).where(eq(applications.userId, from));
        for (const applicationId of [row.into!, from]) {
          await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'application_unmerge', applicationId, detail: { into: row.into, from }, ip: request.ip });
        }
        return true;
      });
      if (!undone) throw new HttpError(404, mergeMessages.notMerged);
      return reply.code(204).send();
    }),
  } satisfies Handlers;
}

/** The duplicates merged into a record. */
export async function mergedFrom(db: Db, into: string): Promise<string[]> {
  const rows = await db.select({ userId: applications.userId }).from(applications).where(eq(applications.mergedInto, into));
  return rows.map((row) => row.userId);
}
