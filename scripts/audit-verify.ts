import { loadConfigOrExit } from '../server/infra/config';
import { openCommandDatabase } from './commandDatabase';
import { chainReportLine, verifyAuditChain } from '../server/office/auditChain';

/**
 * `npm run audit:verify`: checks the audit log's hash chain where the server's configuration points
 * (DATABASE_URL, or DATA_DIR with the server stopped); exit code 1 when it is broken.
 */
const config = loadConfigOrExit();
const database = await openCommandDatabase(config);
try {
  await database.migrate();
  const report = await verifyAuditChain(database.db);
  console.log(chainReportLine(report));
  if (!report.ok) process.exitCode = 1;
} finally {
  await database.close();
}
