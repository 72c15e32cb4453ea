/**
 * Erasures killed with SIGKILL (server/records/erasureKill.test.ts), as `kill -9` would: every
 * applicant of the database erased in turn, the process killing itself at the `killAt`-th removal
 * of a file (after that erasure's commit, before its files are gone), or never (0).
 *
 *   node --import tsx server/testing/erasureChild.ts <database url> <data dir> <killAt>
 */
import { createStorage } from '../infra/storage';
import { openDatabase } from '../infra/db';
import { users } from '../infra/schema';
import { eraseApplicants } from '../records/person';
import { withdrawRunsCarrying } from '../exports/withdraw';

const [databaseUrl, dataDir, killAt] = process.argv.slice(2) as [string, string, string];
const database = await openDatabase({ databaseUrl, dataDir: null });
const storage = createStorage({ s3: null, dataDir, publicUrl: 'http://127.0.0.1:9', sessionSecret: 'not-used-by-an-erasure' });
let removals = 0;
const dying = {
  ...storage,
  deleteFolder: async (prefix: string) => {
    if (++removals === Number(killAt)) process.kill(process.pid, 'SIGKILL');
    await storage.deleteFolder(prefix);
  },
};
const ids = (await database.db.select({ id: users.id }).from(users).orderBy(users.username)).map((row) => row.id);
await eraseApplicants({ db: database.db, storage: dying, withdrawRunsCarrying }, ids, (userId, files) => ({ staff: { id: null, email: 'retention' }, action: 'retention_erase', applicationId: userId, detail: { term: 'Fall 2020', files }, ip: 'job' }));
await database.close();
