import { asc, eq } from 'drizzle-orm';
import type { components } from '../../generated/api';
import { staffMessages } from '../../domain/staff';
import type { Handlers } from '../http/handler';
import type { Db } from '../infra/db';
import { applicationNotes, applications } from '../infra/schema';
import { recordAudit } from '../office/audit';
import { staffCall } from '../office/sessions';
import { HttpError } from '../http/errors';

type ApplicationNote = components['schemas']['ApplicationNote'];

const noteOf = (row: typeof applicationNotes.$inferSelect): ApplicationNote => ({
  id: row.id,
  author_email: row.authorEmail,
  text: row.text,
  created_at: row.createdAt.toISOString(),
});

/** An application's notes, oldest first. */
export async function notesOf(db: Db, userId: string): Promise<ApplicationNote[]> {
  const rows = await db.select().from(applicationNotes).where(eq(applicationNotes.userId, userId)).orderBy(asc(applicationNotes.id));
  return rows.map(noteOf);
}

/** POST /staff/api/applications/{id}/notes: a note kept as written, with its audit entry in the same transaction. */
export function noteHandlers(db: Db) {
  return {
    addApplicationNote: staffCall<'addApplicationNote'>('reader', async (request, reply, staff) => {
      const userId = request.params.id;
      // Kept as typed (line breaks and all), but a note of spaces alone says nothing.
      const text = request.body.text.replace(/\s+$/, '');
      if (!text.trim()) throw new HttpError(400, staffMessages.noteEmpty, { errors: { text: [staffMessages.noteEmpty] } });
      const note = await db.transaction(async (tx) => {
        const [application] = await tx.select({ userId: applications.userId }).from(applications).where(eq(applications.userId, userId));
        if (!application) return null;
        const [row] = await tx.insert(applicationNotes).values({ userId, staffId: staff.staffId, authorEmail: staff.email, text }).returning();
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'note_add', applicationId: userId, detail: { note: row!.id }, ip: request.ip });
        return noteOf(row!);
      });
      if (!note) throw new HttpError(404, staffMessages.applicationNotFound);
      return reply.code(201).send(note);
    }),
  } satisfies Handlers;
}
