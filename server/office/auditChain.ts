import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../infra/db';

export type ChainReport =
  | { ok: true; entries: number; head: string | null; /** Entries whose identifying text an erasure replaced (migration 0048): in the chain, content not recomputed. */ redacted: number }
  | { ok: false; entries: number; entryId: number; problem: 'changed' | 'out of chain' };

/**
 * Walks the audit log in id order and recomputes each entry's hash (migration 0013's
 * `audit_log_entry_hash`): an entry changed after it was written, or one removed, added or moved,
 * breaks the chain there. The head (the last hash) is what an operator notes elsewhere: a log
 * rewritten from its first entry on, or cut at its end, differs from it.
 */
export async function verifyAuditChain(db: Db, batch = 5_000): Promise<ChainReport> {
  let entries = 0;
  let redacted = 0;
  let previous: string | null = null;
  let after = 0;
  for (;;) {
    const rows = rowsOf<{ id: number | string; prev_hash: string | null; hash: string | null; recomputed: string; redacted: boolean }>(
      await db.execute(
        sql`select id, prev_hash, hash, audit_log_entry_hash(prev_hash, a) as recomputed, exists (select 1 from audit_redactions r where r.entry_id = a.id) as redacted from audit_log a where id > ${after} order by id limit ${batch}`,
      ),
    );
    for (const row of rows) {
      const id = Number(row.id);
      entries++;
      if (row.prev_hash !== previous) return { ok: false, entries, entryId: id, problem: 'out of chain' };
      // A redacted entry changed by design (an erasure): it still holds its place in the chain.
      if (row.redacted) redacted++;
      else if (row.hash !== row.recomputed) return { ok: false, entries, entryId: id, problem: 'changed' };
      previous = row.hash;
      after = id;
    }
    if (rows.length < batch) return { ok: true, entries, head: previous, redacted };
  }
}

/** The one line `npm run audit:verify` prints. */
export function chainReportLine(report: ChainReport): string {
  if (report.ok) return `Audit log intact: ${report.entries} entries${report.redacted ? ` (${report.redacted} with an erased applicant's name replaced by their id)` : ''}, head ${report.head ?? '(empty)'}. Keep the head with the backups: a log rewritten from its start, or cut at its end, will not end in it.`;
  return report.problem === 'changed'
    ? `Audit log broken: entry ${report.entryId} was changed after it was written.`
    : `Audit log broken: entry ${report.entryId} does not follow the entry before it (one was removed, added or moved).`;
}
