import { eq, sql } from 'drizzle-orm';
import { staffMessages } from '../../domain/staff';
import type { components } from '../../generated/api';
import { purgeQueued } from '../infra/purge';
import type { Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import { rowsOf, type Db } from '../infra/db';
import { retentionRules, users } from '../infra/schema';
import { recordAudit } from '../office/audit';
import { staffCall } from '../office/sessions';
import { applicationsOfTerms, eraseApplicants, heldFilesSql, personArchive, type ErasureDeps } from './person';
import { HttpError } from '../http/errors';

export const recordMessages = {
  reasonRequired: 'Say why the records are erased: the request and when it came.',
  emailMismatch: 'Type the applicant’s e-mail address exactly, to confirm whose records are erased.',
  termTwice: 'Each term can have one rule only.',
  /** A save whose rules erase applications within the hour, not yet confirmed by their count. */
  eraseNow: (applications: number, files: number) =>
    `Saving erases ${countOf(applications, 'application')} and ${countOf(files, 'file')} within the hour. Confirm to go on.`,
} as const;

const countOf = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

/** Who erases as retention runs out, in the audit log. */
const RETENTION_ACTOR = { id: null, email: 'retention' };

const today = () => clock.now().toISOString().slice(0, 10);

/** The dry run: for each term whose date has come by `on` (a day, UTC), how many applications and files would go. */
async function dueOf(db: Db, on: string): Promise<components['schemas']['Retention']['due']> {
  const due = sql`select a.user_id, r.term from ${retentionRules} r join applications a on a.entry_term = r.term where r.delete_after <= ${on}`;
  const rows = rowsOf<{ term: string; applications: number; files: number }>(
    await db.execute(sql`
      with due as (${due})
      select due.term, count(distinct due.user_id)::int as applications, count(held.key)::int as files
      from due left join (${heldFilesSql(sql`user_id in (select user_id from due)`)}) held on held.user_id = due.user_id
      group by due.term order by due.term`),
  );
  return rows.map((row) => ({ term: row.term, applications: Number(row.applications), files: Number(row.files) }));
}

/** The rules and the dry run of `on`; `due`, when the caller has just counted it (a save), is not counted again. */
async function retentionOf(db: Db, on = today(), due?: components['schemas']['Retention']['due']): Promise<components['schemas']['Retention']> {
  const rules = await db.select().from(retentionRules).orderBy(retentionRules.term);
  const latest = rules.reduce<(typeof rules)[number] | null>((newest, rule) => (!newest || rule.updatedAt > newest.updatedAt ? rule : newest), null);
  return { rules: rules.map((rule) => ({ term: rule.term, delete_after: rule.deleteAfter })), due: due ?? (await dueOf(db, on)), due_on: on, updated_by: latest?.updatedByEmail ?? null, updated_at: latest?.updatedAt.toISOString() ?? null };
}

/** Erases the applications of every term whose date has passed (the daily job); answers how many went. */
export async function eraseDueRetention(deps: ErasureDeps): Promise<number> {
  const due = await deps.db.select().from(retentionRules).where(sql`${retentionRules.deleteAfter} <= ${today()}`);
  let erased = 0;
  for (const rule of due) {
    const ids = await applicationsOfTerms(deps.db, [rule.term]);
    const done = await eraseApplicants(deps, ids, (userId, files) => ({ staff: RETENTION_ACTOR, action: 'retention_erase', applicationId: userId, detail: { term: rule.term, files }, ip: 'job' }));
    erased += done.applicants;
  }
  return erased;
}

/**
 * Looks each hour (a term's date is a day: the first look after it passes erases), first finishing
 * the removal of files an erasure queued before a crash.
 */
export function retentionNowAndThen(deps: ErasureDeps & Required<Pick<ErasureDeps, 'log'>>): () => void {
  const sweep = () =>
    void purgeQueued(deps)
      .then(() => eraseDueRetention(deps))
      .catch((error: unknown) => deps.log(error, 'retention sweep failed'));
  sweep();
  const timer = setInterval(sweep, 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}

export function recordHandlers(deps: ErasureDeps) {
  const { db } = deps;
  return {
    exportPersonRecord: staffCall<'exportPersonRecord'>('admin', async (request, reply, staff) => {
      const archive = await personArchive(deps, request.params.id);
      if (!archive) throw new HttpError(404, staffMessages.applicationNotFound);
      await recordAudit(db, { staff: { id: staff.staffId, email: staff.email }, action: 'person_export', applicationId: request.params.id, detail: { files: archive.files }, ip: request.ip });
      reply.header('content-disposition', `attachment; filename="record-${request.params.id}.zip"`).header('cache-control', 'private, no-store');
      return reply.type('application/zip').code(200).send(archive.stream);
    }),

    erasePerson: staffCall<'erasePerson'>('admin', async (request, reply, staff) => {
      const userId = request.params.id;
      const reason = request.body.reason.trim();
      const [account] = await db.select({ email: users.username }).from(users).where(eq(users.id, userId));
      if (!account) throw new HttpError(404, staffMessages.applicationNotFound);
      const errors: Record<string, string[]> = {};
      if (!reason) errors.reason = [recordMessages.reasonRequired];
      if (request.body.email.trim().toLowerCase() !== account.email) errors.email = [recordMessages.emailMismatch];
      if (Object.keys(errors).length) throw new HttpError(400, 'Please check the highlighted fields.', { errors });
      const done = await eraseApplicants(deps, [userId], (id, files) => ({ staff: { id: staff.staffId, email: staff.email }, action: 'person_erase', applicationId: id, detail: { reason, files }, ip: request.ip }));
      return reply.code(200).send({ files: done.files });
    }),

    getRetention: staffCall<'getRetention'>('admin', async (request, reply) => reply.code(200).send(await retentionOf(db, request.query.on ?? today()))),

    setRetention: staffCall<'setRetention'>('admin', async (request, reply, staff) => {
      const terms = request.body.rules.map((rule) => rule.term.trim());
      if (new Set(terms).size !== terms.length) throw new HttpError(400, recordMessages.termTwice, { errors: { rules: [recordMessages.termTwice] } });
      const kept = await db.transaction(async (tx) => {
        await tx.delete(retentionRules);
        if (terms.length) await tx.insert(retentionRules).values(request.body.rules.map((rule) => ({ term: rule.term.trim(), deleteAfter: rule.delete_after, updatedByEmail: staff.email, updatedAt: clock.now() })));
        // What these rules erase within the hour, counted under them before they are kept: an
        // erasure needs its count confirmed, or nothing is kept (issue 51).
        const on = today();
        const due = await dueOf(tx, on);
        const applications = due.reduce((sum, term) => sum + term.applications, 0);
        const files = due.reduce((sum, term) => sum + term.files, 0);
        if (applications > 0 && request.body.erase_now !== applications) throw new HttpError(409, recordMessages.eraseNow(applications, files), { body: { applications, files } });
        await recordAudit(tx, {
          staff: { id: staff.staffId, email: staff.email },
          action: 'retention_change',
          detail: { rules: request.body.rules.map((rule) => `${rule.term.trim()}: ${rule.delete_after}`), ...(applications > 0 ? { erase_now: String(applications) } : {}) },
          ip: request.ip,
        });
        // The answer's dry run is the one just counted under these rules (the count is the costly part).
        return retentionOf(tx, on, due);
      });
      return reply.code(200).send(kept);
    }),
  } satisfies Handlers;
}
