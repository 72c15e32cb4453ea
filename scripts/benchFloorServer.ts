/**
 * The server floors of `npm run bench` (issue 33), in a process of its own as the app is: a bare
 * Fastify on the same database, with the app's own pool (size, connection set-up), answering
 * - `GET /api/profile`: the app's own profile statement (`profileStatement`), for the applicant named
 *   by `x-user` (no session, no hooks), its JSON text sent as the database wrote it;
 * - `PUT /api/answer`: the save's merge, `answer || $1` on one of 16 rows of a table of its own.
 * Both built once, as the app's are (db.ts `statement`), and run by name.
 * Started with DATABASE_URL and BENCH_MERGE_TABLE; says its address once listening.
 */
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { profileStatement } from '../server/application/profile';
import { openDatabase, runStatement, statement } from '../server/infra/db';

const table = process.env.BENCH_MERGE_TABLE!;
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL!, dataDir: null });
const app = Fastify();
app.get('/api/profile', async (request, reply) => {
  const [row] = await runStatement<{ profile: string }>(database.db, profileStatement, { userId: String(request.headers['x-user']) });
  return reply.type('application/json; charset=utf-8').send(row!.profile);
});
const merge = statement('bench_merge', sql`update ${sql.raw(table)} set answer = answer || ${sql.placeholder('answers')}::jsonb where id = ${sql.placeholder('row')}`);
let row = 0;
app.put('/api/answer', async (request) => {
  await runStatement(database.db, merge, { answers: JSON.stringify(request.body), row: row++ % 16 });
  return { message: 'saved' };
});
process.send!({ url: await app.listen({ port: 0, host: '127.0.0.1' }) });
process.on('disconnect', () => void app.close().then(() => database.close()).finally(() => process.exit(0)));
