/**
 * `node --import tsx e2e/support/seedStaff.ts`: the browser tests' other staff accounts (a second
 * admin, a decider, an auditor, the mail room), made before their server starts, in one process
 * with the function `npm run staff -- add` runs (its command line is tested by scripts/staff.test.ts,
 * and the first admin is still made by it: playwright.config.ts). Each link goes to its file as the
 * command prints it. One process instead of four saves their starts before any test can begin.
 */
import { writeFileSync } from 'node:fs';
import { loadConfigOrExit } from '../../server/infra/config';
import { openDatabase } from '../../server/infra/db';
import { createSetupLink } from '../../server/staff/accounts';
import type { StaffRole } from '../../domain/staff';
import { AUDITOR_EMAIL, AUDITOR_LINK_FILE, DECIDER_EMAIL, DECIDER_LINK_FILE, MAILROOM_EMAIL, MAILROOM_LINK_FILE, SECOND_ADMIN_EMAIL, SECOND_ADMIN_LINK_FILE } from './staff';

const accounts: [email: string, role: StaffRole, file: string][] = [
  [SECOND_ADMIN_EMAIL, 'admin', SECOND_ADMIN_LINK_FILE],
  [DECIDER_EMAIL, 'decider', DECIDER_LINK_FILE],
  [AUDITOR_EMAIL, 'admin', AUDITOR_LINK_FILE],
  [MAILROOM_EMAIL, 'reader', MAILROOM_LINK_FILE],
];

const config = loadConfigOrExit();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await database.migrate();
  for (const [email, role, file] of accounts) {
    const made = await createSetupLink(database.db, { email, role, sessionSecret: config.sessionSecret, publicUrl: config.publicUrl });
    if (!made.ok) throw new Error(`${email}: ${made.message}`);
    writeFileSync(file, `${made.url}\n`);
  }
} finally {
  await database.close();
}
