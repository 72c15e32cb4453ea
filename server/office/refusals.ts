import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routeParam } from '../http/paths';
import type { Db } from '../infra/db';
import { recordAudit } from './audit';

/** The route as the contract names it (`/staff/api/applications/{id}`), not Fastify's `:id`. */
export const contractRoute = (route: string) => route.replace(/:([A-Za-z_]+)/g, '{$1}');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A refused attempt is on the record (issue 32): a member or a machine client answered 403 (a
 * reader at an administrator's call, a client at a template outside its scope), with the call and
 * the application it named. Written before the answer leaves, so the record never lags it.
 */
export function registerRefusalRecord(app: FastifyInstance, db: Db) {
  // A callback, not async: every answer passes here, and only a 403 has anything to write.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode !== 403) return done(null, payload);
    recordRefusal(request).then(() => done(null, payload), done);
  });
  async function recordRefusal(request: FastifyRequest) {
    const machine = (request as { machine?: { name: string } | null }).machine;
    const actor = request.staff ? { id: request.staff.staffId, email: request.staff.email } : machine ? { id: null, email: `client:${machine.name}` } : null;
    if (!actor) return;
    const id = routeParam(request, 'id');
    await recordAudit(db, { staff: actor, action: 'access_refused', applicationId: id && UUID.test(id) ? id : null, detail: { call: `${request.method} ${contractRoute(request.routeOptions.url ?? request.url.split('?')[0]!)}`, status: 403 }, ip: request.ip });
  }
}
