import { desc, eq } from 'drizzle-orm';
import { entryTermOptions } from '../../domain/catalogue/lists';
import { defaultReplyBy } from '../../domain/decisions';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import { HttpError } from '../http/errors';
import { clock } from '../infra/clock';
import type { Db } from '../infra/db';
import { replyDates } from '../infra/schema';
import { recordAudit } from '../office/audit';
import { staffCall } from '../office/sessions';

type ReplyDates = components['schemas']['ReplyDates'];

/** The reply date and deposit line of an application's entry term: the office's, else the built-in date and none. */
export async function replyTermOf(db: Db, entryTerm: unknown): Promise<{ replyBy: string; deposit: string | null }> {
  const term = typeof entryTerm === 'string' ? entryTerm.trim() : '';
  const [row] = term ? await db.select().from(replyDates).where(eq(replyDates.entryTerm, term)) : [];
  return row ? { replyBy: row.replyBy, deposit: row.deposit } : { replyBy: defaultReplyBy(term), deposit: null };
}

async function replyDatesNow(db: Db): Promise<ReplyDates> {
  const rows = await db.select().from(replyDates).orderBy(desc(replyDates.updatedAt));
  const set = new Map(rows.map((row) => [row.entryTerm, row]));
  // The terms the form offers, then any other the office set (a term the form no longer offers).
  const terms = [...new Set([...entryTermOptions(clock.now()).map((option) => option.value), ...rows.map((row) => row.entryTerm)])];
  return {
    terms: terms.map((term) => {
      const row = set.get(term);
      return row ? { entry_term: term, reply_by: row.replyBy, deposit: row.deposit, built_in: false } : { entry_term: term, reply_by: defaultReplyBy(term), deposit: null, built_in: true };
    }),
    updated_by: rows[0]?.updatedByEmail ?? null,
    updated_at: rows[0]?.updatedAt.toISOString() ?? null,
  };
}

export const replyDateMessages = {
  termTwice: 'Each entry term can have one reply date.',
} as const;

export function replyDateHandlers(db: Db) {
  return {
    // Dates and a line of text, no applicant's data: not in the audit log.
    getReplyDates: staffCall<'getReplyDates'>('reader', async (_request, reply) => reply.code(200).send(await replyDatesNow(db))),

    setReplyDates: staffCall<'setReplyDates'>('admin', async (request, reply, staff) => {
      const terms = request.body.terms.map((term) => ({ entryTerm: term.entry_term.trim(), replyBy: term.reply_by, deposit: term.deposit?.trim() || null }));
      if (new Set(terms.map((term) => term.entryTerm)).size !== terms.length) throw new HttpError(400, replyDateMessages.termTwice, { errors: { terms: [replyDateMessages.termTwice] } });
      const now = clock.now();
      await db.transaction(async (tx) => {
        await tx.delete(replyDates);
        if (terms.length) await tx.insert(replyDates).values(terms.map((term) => ({ ...term, updatedByEmail: staff.email, updatedAt: now })));
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'reply_dates_change', detail: { terms: terms.map((term) => `${term.entryTerm}: ${term.replyBy}`) }, ip: request.ip });
      });
      return reply.code(200).send(await replyDatesNow(db));
    }),
  } satisfies Handlers;
}
