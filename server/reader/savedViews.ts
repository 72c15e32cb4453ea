import { and, asc, desc, eq, or } from 'drizzle-orm';
import { savedViewMessages } from '../../domain/savedViews';
import { staffRoleCovers } from '../../domain/staff';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import { HttpError } from '../http/errors';
import { isUniqueViolation, type Db } from '../infra/db';
import { savedViews } from '../infra/schema';
import { staffCall, type StaffSession } from '../office/sessions';

type SavedView = components['schemas']['SavedView'];
type SavedViewRequest = components['schemas']['SavedViewRequest'];

/** The list's address keys a view keeps, in the order it writes them; its page and the row to return to are where a member is, not what they look at. */
const VIEW_KEYS = ['status', 'entry_term', 'q', 'bin', 'queue', 'checklist', 'missing', 'score', 'score_min', 'score_max', 'sort'] as const;

/** A list's address as a view keeps it: the keys a view holds, once each, in one order. */
export function savedViewQuery(text: string): string {
  const given = new URLSearchParams(text.startsWith('?') ? text.slice(1) : text);
  const kept = new URLSearchParams();
  for (const key of VIEW_KEYS) {
    const value = given.get(key);
    if (value) kept.set(key, value);
  }
  return kept.toString();
}

const asContract = (row: typeof savedViews.$inferSelect, staffId: string): SavedView => ({
  id: row.id,
  name: row.name,
  query: row.query,
  columns: row.columns as SavedView['columns'],
  shared: row.shared,
  owner_email: row.ownerEmail,
  mine: row.staffId === staffId,
});

/** A view as kept: its name trimmed, its query without a page, its columns once each. */
const kept = (body: SavedViewRequest) => {
  const name = body.name.trim();
  if (!name) throw new HttpError(400, savedViewMessages.nameRequired, { errors: { name: [savedViewMessages.nameRequired] } });
  return { name, query: savedViewQuery(body.query), columns: [...new Set(body.columns)], shared: body.shared };
};

/** The view, when the member may change it: theirs; an administrator may also remove a shared one. */
async function ownView(db: Db, id: number, staff: StaffSession, removing = false) {
  const [row] = await db.select().from(savedViews).where(eq(savedViews.id, id));
  if (!row || (!row.shared && row.staffId !== staff.staffId)) throw new HttpError(404, savedViewMessages.notFound);
  if (row.staffId !== staff.staffId && !(removing && staffRoleCovers(staff.role, 'admin'))) throw new HttpError(403, savedViewMessages.notYours);
  return row;
}

// No applicant's data in a view (a search typed is the member's own words): not in the audit log.
export function savedViewHandlers(db: Db) {
  return {
    listSavedViews: staffCall<'listSavedViews'>('reader', async (_request, reply, staff) => {
      const rows = await db
        .select()
        .from(savedViews)
        .where(or(eq(savedViews.staffId, staff.staffId), eq(savedViews.shared, true)))
        .orderBy(desc(eq(savedViews.staffId, staff.staffId)), asc(savedViews.name), asc(savedViews.id));
      return reply.code(200).send({ views: rows.map((row) => asContract(row, staff.staffId)) });
    }),

    createSavedView: staffCall<'createSavedView'>('reader', async (request, reply, staff) => {
      try {
        const [row] = await db.insert(savedViews).values({ ...kept(request.body), staffId: staff.staffId, ownerEmail: staff.email }).returning();
        return reply.code(201).send(asContract(row!, staff.staffId));
      } catch (error) {
        if (error instanceof HttpError || !isUniqueViolation(error)) throw error;
        throw new HttpError(409, savedViewMessages.nameTaken, { errors: { name: [savedViewMessages.nameTaken] } });
      }
    }),

    updateSavedView: staffCall<'updateSavedView'>('reader', async (request, reply, staff) => {
      await ownView(db, request.params.view, staff);
      try {
        const [row] = await db
          .update(savedViews)
          .set(kept(request.body))
          .where(and(eq(savedViews.id, request.params.view), eq(savedViews.staffId, staff.staffId)))
          .returning();
        if (!row) throw new HttpError(404, savedViewMessages.notFound);
        return reply.code(200).send(asContract(row, staff.staffId));
      } catch (error) {
        if (error instanceof HttpError || !isUniqueViolation(error)) throw error;
        throw new HttpError(409, savedViewMessages.nameTaken, { errors: { name: [savedViewMessages.nameTaken] } });
      }
    }),

    deleteSavedView: staffCall<'deleteSavedView'>('reader', async (request, reply, staff) => {
      await ownView(db, request.params.view, staff, true);
      await db.delete(savedViews).where(eq(savedViews.id, request.params.view));
      return reply.code(204).send();
    }),
  } satisfies Handlers;
}
