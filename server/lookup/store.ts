import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { usStateNameByCode } from '../../domain/catalogue/options';
import type { Db } from '../infra/db';
import { lookupRecords, lookupSources } from '../infra/schema';
import { fold } from '../office/searchText';
import { parseLookupFile, zipRecords, type LookupRecord, type StoredCategory } from './sources';

/** The lists that ship with the portal (see reference-data/README.md for sources and licences). */
const referenceDataDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../reference-data');
export const shippedFiles = {
  hs_ceeb: path.join(referenceDataDir, 'high-schools/nces_ceeb_crosswalk_2023-10-19.csv'),
  college_ceeb: path.join(referenceDataDir, 'colleges/ipeds_hd2022_directory.csv'),
} as const;
const ZIPCODES_SOURCE = 'npm package zipcodes (US ZIP codes)';

/** Rows per INSERT, sent as one JSON parameter (row-by-row parameters made a full load take 30 s). */
const BATCH = 5000;

/** A record as a row of lookup_records, with the column names of the table. */
function toRow(record: LookupRecord) {
  const searchName = fold(record.name);
  const words = [searchName, record.aliases && fold(record.aliases), record.city && fold(record.city), record.stateCode?.toLowerCase(), record.id, record.ceeb, record.zip?.slice(0, 5)];
  return {
    category: record.category,
    id: record.id,
    name: record.name,
    ceeb: record.ceeb ?? null,
    city: record.city ?? null,
    state: record.stateCode ? (usStateNameByCode[record.stateCode] ?? null) : null,
    state_code: record.stateCode ?? null,
    zip: record.zip ?? null,
    country: record.country ?? null,
    active: record.active,
    search_name: searchName,
    search_text: [...new Set(words.filter(Boolean))].join(' '),
  };
}

/**
 * Replaces every record of each category the list holds, in one transaction: a search during an
 * import sees the old list or the new one, never half of each.
 */
export async function replaceLookups(db: Db, records: LookupRecord[], source: string): Promise<Map<StoredCategory, number>> {
  const byCategory = new Map<StoredCategory, LookupRecord[]>();
  for (const record of records) {
    const list = byCategory.get(record.category);
    if (list) list.push(record);
    else byCategory.set(record.category, [record]);
  }
  await db.transaction(async (tx) => {
    for (const [category, list] of byCategory) {
      await tx.delete(lookupRecords).where(eq(lookupRecords.category, category));
      for (let start = 0; start < list.length; start += BATCH) {
        const rows = JSON.stringify(list.slice(start, start + BATCH).map(toRow));
        await tx.execute(sql`insert into lookup_records select * from json_populate_recordset(null::lookup_records, ${rows}::json)`);
      }
      await tx
        .insert(lookupSources)
        .values({ category, source, rowCount: list.length })
        .onConflictDoUpdate({ target: lookupSources.category, set: { source, rowCount: list.length, importedAt: sql`now()` } });
    }
    // Fresh statistics at once: without them the planner scans every row (ten times slower), and
    // PGlite has no autovacuum to gather them later.
    await tx.execute(sql`analyze lookup_records`);
  });
  return new Map([...byCategory].map(([category, list]) => [category, list.length]));
}

/** Reads a lookup file and loads it; returns what was loaded and what was left out. */
export async function importLookupFile(db: Db, file: string) {
  const parsed = parseLookupFile(readFileSync(file, 'utf8'));
  if (parsed.records.length === 0) throw new Error(`${file} holds no usable rows.`);
  const counts = await replaceLookups(db, parsed.records, path.basename(file));
  return { format: parsed.format, counts, skipped: parsed.skipped };
}

/**
 * On first start, loads the shipped lists into every category that has never been loaded. An
 * institution's own import is kept: a category with a source is left alone. The transaction's
 * advisory lock keeps two instances starting together from loading twice.
 */
export async function seedLookups(db: Db, log: (line: string) => void = () => {}): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('seed lookup_records'))`);
    const loaded = new Set((await tx.select({ category: lookupSources.category }).from(lookupSources)).map((row) => row.category));
    for (const [category, file] of Object.entries(shippedFiles)) {
      if (loaded.has(category)) continue;
      const { counts, skipped } = await importLookupFile(tx, file);
      log(`lookups: loaded ${counts.get(category as StoredCategory) ?? 0} ${category} records from ${path.basename(file)}${skipped.length ? ` (${skipped.length} left out: ${skipped.join('; ')})` : ''}`);
    }
    if (!loaded.has('address')) {
      const counts = await replaceLookups(tx, zipRecords(), ZIPCODES_SOURCE);
      log(`lookups: loaded ${counts.get('address') ?? 0} ZIP codes from ${ZIPCODES_SOURCE}`);
    }
  });
}
