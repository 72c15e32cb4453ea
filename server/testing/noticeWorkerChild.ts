/**
 * A notice worker that is killed with SIGKILL mid-batch (server/decisions/noticesKill.test.ts): it
 * sends the due decision notices to a file, one line per mail written before the next is sent, and
 * kills itself the moment the `killAfter`-th mail is written, as `kill -9` would.
 *
 *   node --import tsx server/testing/noticeWorkerChild.ts <database url> <mail file> <killAfter>
 */
import { appendFileSync } from 'node:fs';
import { sendDueNotices } from '../decisions/notices';
import { openDatabase } from '../infra/db';

const [databaseUrl, mailFile, killAfter] = process.argv.slice(2) as [string, string, string];
const database = await openDatabase({ databaseUrl, dataDir: null });
let sent = 0;
await sendDueNotices({
  db: database.db,
  publicUrl: 'http://127.0.0.1:9',
  log: () => {},
  mailer: {
    kind: 'outbox',
    send: async (mail) => {
      appendFileSync(mailFile, `${mail.to}\n`);
      if (++sent === Number(killAfter)) process.kill(process.pid, 'SIGKILL');
    },
  },
});
// Fewer due than killAfter: the test expects a kill, so say so and fail it.
console.error(`sent ${sent} notices and was not killed`);
process.exit(3);
