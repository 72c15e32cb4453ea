/**
 * An export run killed with SIGKILL at a chosen point (server/exports/exportKill.test.ts), as
 * `kill -9` would: after its first batch is written, once its `.part` file is stored, or once the
 * cursor has moved but before the file has its final name.
 *
 *   node --import tsx server/testing/exportRunChild.ts <database url> <data dir> <run id> <batch|stored|committed>
 */
import { createStorage } from '../infra/storage';
import { executeRun } from '../exports/run';
import { openDatabase } from '../infra/db';

const [databaseUrl, dataDir, runId, killAt] = process.argv.slice(2) as [string, string, string, 'batch' | 'stored' | 'committed'];
const database = await openDatabase({ databaseUrl, dataDir: null });
const storage = createStorage({ s3: null, dataDir, publicUrl: 'http://127.0.0.1:9', sessionSecret: 'not-used-by-an-export' });
const die = () => void process.kill(process.pid, 'SIGKILL');
await executeRun({ db: database.db, storage }, Number(runId), {
  afterBatch: () => (killAt === 'batch' ? die() : undefined),
  afterStored: () => (killAt === 'stored' ? die() : undefined),
  afterCommit: () => (killAt === 'committed' ? die() : undefined),
});
// The run ended without reaching its kill point: the test expects a kill, so say so and fail it.
console.error(`run ${runId} ended and was not killed at ${killAt}`);
process.exit(3);
