import type { Config } from '../server/infra/config';
import { DATA_DIR_IN_USE } from '../server/infra/dataDirLock';
import { openDatabase, type Database } from '../server/infra/db';

/**
 * The database an operator's command (`npm run staff`, `service-link`, `audit:verify`,
 * `import:lookups`) works on, with the server's configuration. While a running server holds the
 * embedded one, the command refuses in one line and ends with status 1, before it prints a link
 * the server would not know of.
 */
export async function openCommandDatabase(config: Config): Promise<Database> {
  try {
    return await openDatabase({ databaseUrl: config.databaseUrl, migrationUrl: config.databaseMigrationUrl, dataDir: config.dataDir });
  } catch (error) {
    if ((error as { code?: unknown }).code !== DATA_DIR_IN_USE) throw error;
    console.error((error as Error).message);
    process.exit(1);
  }
}
