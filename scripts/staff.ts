import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../server/infra/config';
import { openCommandDatabase } from './commandDatabase';
import { createSetupLink, SETUP_LINK_HOURS } from '../server/staff/accounts';
import { STAFF_ROLES, type StaffRole } from '../domain/staff';

/**
 * `npm run staff -- add <email> --role admin|decider|reader`: creates a staff account (or a new link for
 * one not set up yet) and prints its one-time set-up link. Run it where the server's configuration
 * is (same DATA_DIR or DATABASE_URL and SESSION_SECRET); with the embedded database, while the
 * server is stopped (PGlite allows one process). After the first admin, invite from the console.
 */
const USAGE = 'Usage: npm run staff -- add <email> --role admin|decider|reader';
const { positionals, values } = parseArgs({ allowPositionals: true, options: { role: { type: 'string', default: 'reader' } } });
const [command, email] = positionals;
if (command !== 'add' || !email || !STAFF_ROLES.includes(values.role as StaffRole)) {
  console.error(USAGE);
  process.exit(2);
}
const config = loadConfigOrExit();
const database = await openCommandDatabase(config);
try {
  await database.migrate();
  const made = await createSetupLink(database.db, { email, role: values.role as StaffRole, sessionSecret: config.sessionSecret, publicUrl: config.publicUrl });
  if (!made.ok) {
    console.error(made.message);
    process.exitCode = 1;
  } else {
    console.log(made.url);
    console.log(`One-time set-up link for ${email.trim().toLowerCase()} (${values.role}), valid ${SETUP_LINK_HOURS} hours: open it to choose a password and add the authenticator.`);
  }
} finally {
  await database.close();
}
