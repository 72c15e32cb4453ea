import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf, type Database } from '../infra/db';
import { fold } from '../lookup/searchText';
import { neutralised } from './export';
import { applications, users } from '../infra/schema';
import { foldSql, STAFF_SEARCH_SQL } from './searchFold';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ databaseUrl: null, dataDir: null });
});
afterAll(async () => database?.close());

describe('the stored search column folds names as the search text is folded', () => {
  it.each(['José Núñez', "O'Brien-Smith", 'ÉLODIE Ørsted', 'Łukasz Żółć', 'Straße & Sons', 'Çağrı Şahin', 'Zoë  Æsir', 'Ægir Þórsson', 'Anh-Đức Nguyễn'])('%s', async (name) => {
    const literal = `'${name.replaceAll("'", "''")}'`;
    const [folded] = rowsOf<{ folded: string }>(await database.db.execute(sql.raw(`select ${foldSql(literal)} as folded`)));
    expect(folded!.folded).toBe(fold(name));
  });
});

describe('the stored search column, kept by the database (migration 0009)', () => {
  let migrated: Database;
  beforeAll(async () => {
    migrated = await openDatabase({ databaseUrl: null, dataDir: null });
    await migrated.migrate();
  });
  afterAll(async () => migrated?.close());

  const stored = async (userId: string) => (await migrated.db.select({ staffSearch: applications.staffSearch }).from(applications).where(eq(applications.userId, userId)))[0]?.staffSearch;

  it.each([{ first_name: 'José', last_name: "O'Brien-Núñez" }, { first_name: 'Zoë', preferred_name: 'Ægir', last_name: 'Łukasz' }, { last_name: 'Straße & Sons' }, {}])(
    'the migration folds %j as STAFF_SEARCH_SQL does',
    async (answer) => {
      const json = `'${JSON.stringify(answer).replaceAll("'", "''")}'::jsonb`;
      const [row] = rowsOf<{ migrated: string; current: string }>(
        await migrated.db.execute(sql.raw(`select staff_search_fold(${json}) as migrated, (select ${STAFF_SEARCH_SQL} from (select ${json} as answer) a) as current`)),
      );
      expect(row!.migrated).toBe(row!.current);
    },
  );

  it('is written on insert, kept by a save that changes no name, and written again when a name changes', async () => {
    const [user] = await migrated.db.insert(users).values({ username: 'fold@example.com', passwordHash: 'x' }).returning({ id: users.id });
    const userId = user!.id;
    await migrated.db.insert(applications).values({ userId, answer: { first_name: 'José', last_name: 'Núñez' } });
    expect(await stored(userId)).toBe('jose nunez');
    await migrated.db.update(applications).set({ answer: sql`answer || '{"hs_name": "East High"}'::jsonb` }).where(eq(applications.userId, userId));
    expect(await stored(userId)).toBe('jose nunez');
    await migrated.db.update(applications).set({ answer: sql`answer || '{"preferred_name": "Pepe"}'::jsonb` }).where(eq(applications.userId, userId));
    expect(await stored(userId)).toBe('jose pepe nunez');
    await migrated.db.update(applications).set({ answer: sql`answer - 'first_name'` }).where(eq(applications.userId, userId));
    expect(await stored(userId)).toBe('pepe nunez');
    // Nobody writes it but the database.
    await migrated.db.update(applications).set({ staffSearch: 'someone else' }).where(eq(applications.userId, userId));
    expect(await stored(userId)).toBe('pepe nunez');
  });
});

describe('a CSV cell a spreadsheet would run', () => {
  it.each([
    ['=SUM(A1)', "'=SUM(A1)"],
    ['+1 555 0100', "'+1 555 0100"],
    ['-2', "'-2"],
    ['@cmd', "'@cmd"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    ['Rivera', 'Rivera'],
    ['a=b', 'a=b'],
  ])('%j → %j', (value, written) => {
    expect(neutralised(value)).toBe(written);
  });
});
