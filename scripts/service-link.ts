import { eq } from 'drizzle-orm';
import { loadConfigOrExit } from '../server/infra/config';
import { openCommandDatabase } from './commandDatabase';
import { users } from '../server/infra/schema';
import { createServiceToken, SERVICE_TOKEN_MINUTES } from '../server/service/tokens';

/**
 * `npm run service-link -- applicant@example.com`: prints a read-only print-view link to one
 * application for admissions staff, valid for a few minutes. Run it where the server's
 * configuration is (same DATA_DIR or DATABASE_URL); with the embedded database, stop the server
 * first (PGlite allows one process).
 */
const username = process.argv[2]?.trim().toLowerCase();
if (!username) {
  console.error('Usage: npm run service-link -- <applicant e-mail>');
  process.exit(2);
}
const config = loadConfigOrExit();
const database = await openCommandDatabase(config);
try {
  await database.migrate();
  const [user] = await database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!user) {
    console.error(`No account for ${username}.`);
    process.exitCode = 1;
  } else {
    const token = await createServiceToken(database.db, user.id);
    console.log(`${config.publicUrl}/about?service_token=${token}`);
    console.log(`Valid for ${SERVICE_TOKEN_MINUTES} minutes, read-only.`);
  }
} finally {
  await database.close();
}
