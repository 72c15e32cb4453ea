/**
 * The machine client of the exports (issue 32): an SIS with a key of its own pulls the runs of the
 * templates it was given, and can take the next batch now. Every read of applicants' data is in
 * the audit log under `client:<name>`, as a person's would be.
 */
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { exportTemplateMessages } from '../../domain/exportTemplates';
import type { Storage } from '../infra/storage';
import { HttpError } from '../http/errors';
import type { Handler, Handlers, OperationId, TypedReply, TypedRequest } from '../http/handler';
import { clock } from '../infra/clock';
import { randomToken, sha256 } from '../infra/crypto';
import type { Db } from '../infra/db';
import { assertWithinLimits } from '../infra/rateLimit';
import { exportClients, exportRuns, exportTemplates } from '../infra/schema';
import { recordAudit } from '../office/audit';
import { staffCall } from '../office/sessions';
import { executeRun } from './run';
import { beginRun, exportMessages, runOf, sendRunFile } from './templates';
import { hookFor } from '../http/hookFor';

export const machineMessages = {
  keyInvalid: 'This key is not valid. Ask the admissions office for a new one.',
  outOfScope: 'This client may not read this template.',
  nameRequired: 'Enter a name for this client.',
  nameTaken: 'Another client has this name.',
  unknownTemplates: 'Choose templates that exist.',
  clientNotFound: 'There is no such client.',
} as const;

/** Calls a minute per client: a loader polling every few seconds stays well inside it. */
export const MACHINE_CALLS_PER_MINUTE = 60;
/** Calls a minute from one address with a key that is no live client's: guessing keys is slowed (issue 49). */
export const WRONG_KEYS_PER_MINUTE = 60;
const KEY_PREFIX = 'pk_';

interface MachineClient {
  id: number;
  name: string;
  templateIds: number[];
  /** Its last use as stored: written again once a call is answered with success, at most once a minute. */
  lastUsedAt: Date | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    machine: MachineClient | null;
  }
}

const actorOf = (client: MachineClient) => ({ id: null, email: `client:${client.name}` });

/**
 * Every /machine/api/ call needs a live client key (`Authorization: Bearer pk_…`), checked before
 * anything else, and is counted against its limit. The limits are the client's contract with the
 * office's SIS (docs/exports.md), not an account's: RATE_LIMIT_SCALE, which loosens the account
 * limits for test set-ups, leaves them as documented (issue 51).
 */
export function registerMachineAuth(app: FastifyInstance, db: Db) {
  app.decorateRequest('machine', null);
  app.addHook('onRequest', hookFor((request) => request.url.startsWith('/machine/api/'), async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const key = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
    const [client] = key.startsWith(KEY_PREFIX)
      ? await db
          .select({ id: exportClients.id, name: exportClients.name, templateIds: exportClients.templateIds, lastUsedAt: exportClients.lastUsedAt })
          .from(exportClients)
          .where(and(eq(exportClients.keyHash, sha256(key)), isNull(exportClients.revokedAt)))
      : [];
    if (!client) {
      // Counted toward a limit of its own by address: a key guessed again and again is slowed.
      await assertWithinLimits(db, [[`machine-key:${request.ip}`, { max: WRONG_KEYS_PER_MINUTE, windowSeconds: 60 }]], 1);
      throw new HttpError(401, machineMessages.keyInvalid, { headers: { 'www-authenticate': 'Bearer' } });
    }
    await assertWithinLimits(db, [[`machine:${client.id}`, { max: MACHINE_CALLS_PER_MINUTE, windowSeconds: 60 }]], 1);
    request.machine = client;
  }));
  // A client's last use is a call it was answered: a refusal writes nothing but its own record
  // (issue 49: an out-of-scope POST moved it). To the minute: one write a minute, not one per call.
  app.addHook('onResponse', hookFor((request) => request.machine !== null, async (request, reply) => {
    const client = request.machine!;
    const now = clock.now();
    if (reply.statusCode >= 400 || (client.lastUsedAt && now.getTime() - client.lastUsedAt.getTime() <= 60_000)) return;
    await db.update(exportClients).set({ lastUsedAt: now }).where(eq(exportClients.id, client.id));
  }));
}

function machineCall<Id extends OperationId>(handle: (request: TypedRequest<Id>, reply: TypedReply<Id>, client: MachineClient) => ReturnType<Handler<Id>>): Handler<Id> {
  return function (request, reply) {
    if (!request.machine) throw new HttpError(401, machineMessages.keyInvalid);
    return handle(request, reply, request.machine);
  } as Handler<Id>;
}

const clientOf = (row: typeof exportClients.$inferSelect) => ({
  id: row.id,
  name: row.name,
  templates: row.templateIds,
  created_by: row.createdByEmail,
  created_at: row.createdAt.toISOString(),
  revoked_at: row.revokedAt?.toISOString() ?? null,
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

export function machineHandlers(deps: { db: Db; storage: Storage }) {
  const { db } = deps;
  const inScope = (client: MachineClient, template: number | null) => template !== null && client.templateIds.includes(template);

  return {
    listExportClients: staffCall<'listExportClients'>('admin', async (_request, reply) => {
      const rows = await db.select().from(exportClients).orderBy(exportClients.name);
      return reply.code(200).send({ clients: rows.map(clientOf) });
    }),

    createExportClient: staffCall<'createExportClient'>('admin', async (request, reply, staff) => {
      const name = request.body.name.trim();
      if (!name) throw new HttpError(400, machineMessages.nameRequired, { errors: { name: [machineMessages.nameRequired] } });
      const known = await db.select({ id: exportTemplates.id }).from(exportTemplates).where(sql`${exportTemplates.id} in (${sql.join(request.body.templates.map((id) => sql`${id}`), sql`, `)})`);
      if (known.length !== request.body.templates.length) throw new HttpError(400, machineMessages.unknownTemplates, { errors: { templates: [machineMessages.unknownTemplates] } });
      const key = `${KEY_PREFIX}${randomToken(32)}`;
      const created = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(exportClients)
          .values({ name, keyHash: sha256(key), templateIds: request.body.templates, createdByEmail: staff.email, createdAt: clock.now() })
          .onConflictDoNothing({ target: exportClients.name })
          .returning();
        if (row) await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'export_client_change', detail: { client: name, change: 'create', templates: request.body.templates.map(String) }, ip: request.ip });
        return row;
      });
      if (!created) throw new HttpError(409, machineMessages.nameTaken, { errors: { name: [machineMessages.nameTaken] } });
      return reply.code(201).send({ client: clientOf(created), key });
    }),

    revokeExportClient: staffCall<'revokeExportClient'>('admin', async (request, reply, staff) => {
      const revoked = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(exportClients)
          .set({ revokedAt: clock.now() })
          .where(and(eq(exportClients.id, request.params.client), isNull(exportClients.revokedAt)))
          .returning({ name: exportClients.name });
        if (row) await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'export_client_change', detail: { client: row.name, change: 'revoke' }, ip: request.ip });
        return row;
      });
      if (!revoked) throw new HttpError(404, machineMessages.clientNotFound);
      return reply.code(204).send();
    }),

    machineListTemplates: machineCall<'machineListTemplates'>(async (_request, reply, client) => {
      const rows = client.templateIds.length
        ? await db.select({ id: exportTemplates.id, name: exportTemplates.name, definition: exportTemplates.definition }).from(exportTemplates).where(sql`${exportTemplates.id} in (${sql.join(client.templateIds.map((id) => sql`${id}`), sql`, `)})`)
        : [];
      return reply.code(200).send({ templates: rows.map((row) => ({ id: row.id, name: row.name, format: row.definition.format })) });
    }),

    machineListRuns: machineCall<'machineListRuns'>(async (request, reply, client) => {
      const template = request.params.template;
      if (!inScope(client, template)) throw new HttpError(403, machineMessages.outOfScope);
      const runs = await db
        .select()
        .from(exportRuns)
        .where(and(eq(exportRuns.templateId, template), eq(exportRuns.status, 'succeeded'), eq(exportRuns.published, true), gt(exportRuns.id, request.query.after ?? 0)))
        .orderBy(asc(exportRuns.id))
        .limit(100);
      return reply.code(200).send({ runs: runs.map(runOf) });
    }),

    machineStartRun: machineCall<'machineStartRun'>(async (request, reply, client) => {
      const template = request.params.template;
      if (!inScope(client, template)) throw new HttpError(403, machineMessages.outOfScope);
      const run = await beginRun(db, template, 'changes', actorOf(client), request.ip);
      if (run === 'busy') throw new HttpError(409, exportTemplateMessages.runInProgress);
      if (!run) throw new HttpError(404, exportMessages.templateNotFound);
      // The run's own record says how a failure ended; the answer is that record either way.
      await executeRun(deps, run.id).catch(() => undefined);
      const [ended] = await db.select().from(exportRuns).where(eq(exportRuns.id, run.id));
      return reply.code(200).send(runOf(ended!));
    }),

    machineDownloadRun: machineCall<'machineDownloadRun'>(async (request, reply, client) => {
      const [run] = await db.select().from(exportRuns).where(eq(exportRuns.id, request.params.run));
      if (!run) throw new HttpError(404, exportMessages.runNotFound);
      if (!inScope(client, run.templateId)) throw new HttpError(403, machineMessages.outOfScope);
      return sendRunFile({ ...deps, reply, run, part: 'file', actor: actorOf(client), ip: request.ip });
    }),

    machineDownloadRunDocuments: machineCall<'machineDownloadRunDocuments'>(async (request, reply, client) => {
      const [run] = await db.select().from(exportRuns).where(eq(exportRuns.id, request.params.run));
      if (!run) throw new HttpError(404, exportMessages.runNotFound);
      if (!inScope(client, run.templateId)) throw new HttpError(403, machineMessages.outOfScope);
      return sendRunFile({ ...deps, reply, run, part: 'documents', actor: actorOf(client), ip: request.ip });
    }),
  } satisfies Handlers;
}

