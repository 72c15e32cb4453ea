import { existsSync } from 'node:fs';
import { loadConfigOrExit } from '../server/infra/config';
import { openCommandDatabase } from './commandDatabase';
import { importLookupFile } from '../server/lookup/store';

/**
 * `npm run import:lookups -- FILE [FILE …]`: loads a newer or licensed school, college or ZIP list
 * into the database the server uses (same DATA_DIR or DATABASE_URL), replacing the records of each
 * category the file holds. Formats: the NCES–CEEB crosswalk, the IPEDS HD directory, or a CSV with
 * the columns category,id,name[,ceeb,city,state,zip,country,aliases,active] (see the README).
 * With the embedded database, stop the server first (PGlite allows one process).
 */
const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('Usage: npm run import:lookups -- <file.csv> [more files]');
  process.exit(2);
}
const missing = files.filter((file) => !existsSync(file));
if (missing.length > 0) {
  console.error(`No such file: ${missing.join(', ')}`);
  process.exit(2);
}
const config = loadConfigOrExit();
const database = await openCommandDatabase(config);
try {
  await database.migrate();
  for (const file of files) {
    const { format, counts, skipped } = await importLookupFile(database.db, file);
    const loaded = [...counts].map(([category, count]) => `${count} ${category}`).join(', ');
    console.log(`${file} (${format}): loaded ${loaded}; ${skipped.length} ${skipped.length === 1 ? 'row' : 'rows'} left out`);
    for (const line of skipped.slice(0, 20)) console.log(`  ${line}`);
    if (skipped.length > 20) console.log(`  … and ${skipped.length - 20} more`);
  }
} catch (error) {
  console.error(`Import failed, nothing was changed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
