/**
 * A mail worker that is killed with SIGKILL mid-batch (server/decisions/noticesKill.test.ts,
 * server/recommenders/remindersKill.test.ts): it sends the due decision notices (or the weekly
 * materials reminders, `reminders`) to a file, one line per mail (address and Message-ID), and kills
 * itself at the `killAfter`-th, as `kill -9` would: once it is claimed, before it is written
 * (`claimed`), or once it is written, before it is confirmed sent (`handed-over`).
 *
 *   node --import tsx server/testing/noticeWorkerChild.ts <database url> <mail file> <killAfter> <claimed|handed-over> [notices|reminders]
 */
import { appendFileSync } from 'node:fs';
import { sendDueNotices } from '../decisions/notices';
import { openDatabase } from '../infra/db';
import { sendMaterialReminders } from '../recommenders/reminders';

const [databaseUrl, mailFile, killAfter, when, job = 'notices'] = process.argv.slice(2) as [string, string, string, 'claimed' | 'handed-over', 'notices' | 'reminders' | undefined];
const database = await openDatabase({ databaseUrl, dataDir: null });
let sent = 0;
await (job === 'reminders' ? sendMaterialReminders : sendDueNotices)({
  db: database.db,
  publicUrl: 'http://127.0.0.1:9',
  log: () => {},
  mailer: {
    kind: 'outbox',
    send: async (mail) => {
      // Claimed and not yet handed over: the mail never leaves.
      if (when === 'claimed' && sent + 1 === Number(killAfter)) process.kill(process.pid, 'SIGKILL');
      appendFileSync(mailFile, `${mail.to} ${mail.messageId}\n`);
      // Handed over, not yet confirmed: the mail left, the database does not know.
      if (++sent === Number(killAfter)) process.kill(process.pid, 'SIGKILL');
    },
  },
});
// Fewer due than killAfter: the test expects a kill, so say so and fail it.
console.error(`sent ${sent} ${job} and was not killed`);
process.exit(3);
