import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf, type Database } from '../infra/db';
import { applications, users } from '../infra/schema';
import { foldName, foldSql } from './searchFold';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ databaseUrl: null, dataDir: null });
});
afterAll(async () => database?.close());

const NAMES = ['José Núñez', 'ÉLODIE Ørsted', 'Łukasz Żółć', 'Straße & Sons', 'Çağrı Şahin', 'Zoë  Æsir', 'Ægir Þórsson', 'Anh-Đức Nguyễn', '王 美玲', 'ИВАНОВ Пётр', 'Ελένη Παπαδοπούλου', 'ΠΑΠΑΔΟΠΟΥΛΟΣ Ἀθηνᾶ ΐ', 'محمد عبد الله', '佐藤・花子', '김민준', 'Jose\u0301 (decomposed)', 'Ｊｏｈｎ　Ｓｍｉｔｈ', 'Tab\tand\nline'];

describe('the stored search column folds names as the search text is folded (issue 32: any script)', () => {
  it.each(NAMES)('%s', async (name) => {
    const literal = `'${name.replaceAll("'", "''")}'`;
    const [folded] = rowsOf<{ folded: string }>(await database.db.execute(sql.raw(`select ${foldSql(literal)} as folded`)));
    // Stored twice (apostrophes dropped, then read as spaces): without apostrophes, the same twice.
    expect(folded!.folded).toBe(`${foldName(name)} ${foldName(name)}`);
  });

  it.each<[string, string]>([
    ['王 美玲', '王 美玲'],
    ['ИВАНОВ Пётр', 'иванов пётр'],
    // Greek without its accents, and its final sigma a sigma (issue 51); Cyrillic keeps й and ё.
    ['Ελένη Παπαδοπούλου', 'ελενη παπαδοπουλου'],
    ['ΠΑΠΑΔΟΠΟΥΛΟΣ', 'παπαδοπουλοσ'],
    ['Παπαδόπουλος', 'παπαδοπουλοσ'],
    ['Ἀθηνᾶ Ϊ', 'αθηνα ι'],
    ['Йошкар', 'йошкар'],
    ['José Núñez', 'jose nunez'],
    ['Jose\u0301', 'jose'],
    ['佐藤・花子', '佐藤 花子'],
    ["O'Connor", 'oconnor'],
    ['Straße & Sons', 'strasse and sons'],
  ])('folds %j to %j', (name, folded) => {
    expect(foldName(name)).toBe(folded);
  });

  it('stores a name with an apostrophe both ways, so either half finds it', async () => {
    const [folded] = rowsOf<{ folded: string }>(await database.db.execute(sql.raw(`select ${foldSql(`'O''Brien-Smith d’Arcy'`)} as folded`)));
    expect(folded!.folded).toBe('obrien smith darcy o brien smith d arcy');
  });
});

describe('the names the staff search finds, kept by the database (migration 0010)', () => {
  let migrated: Database;
  beforeAll(async () => {
    migrated = await openDatabase({ databaseUrl: null, dataDir: null });
    await migrated.migrate();
  });
  afterAll(async () => migrated?.close());

  const stored = async (userId: string) => (await migrated.db.select({ staffNames: applications.staffNames }).from(applications).where(eq(applications.userId, userId)))[0]?.staffNames;
  /** The ids the staff list's name search finds for one folded word's start (its own expression, so its index). */
  const found = async (word: string) =>
    rowsOf<{ user_id: string }>(await migrated.db.execute(sql`select user_id from ${applications} where to_tsvector('simple', staff_names_fold(staff_names)) @@ to_tsquery('simple', ${`${word}:*`})`)).map((r) => r.user_id);

  it.each([...NAMES, "O'Brien-Smith"])('the migration folds %s as foldSql does', async (name) => {
    const literal = `'${name.replaceAll("'", "''")}'`;
    const [row] = rowsOf<{ migrated: string; current: string }>(await migrated.db.execute(sql.raw(`select staff_names_fold(${literal}) as migrated, ${foldSql(literal)} as current`)));
    expect(row!.migrated).toBe(row!.current);
  });

  it('finds a Greek name typed in capitals or without its accents (issue 51)', async () => {
    const [user] = await migrated.db.insert(users).values({ username: 'greek@example.com', passwordHash: 'x' }).returning({ id: users.id });
    await migrated.db.insert(applications).values({ userId: user!.id, answer: { first_name: 'Ελένη', last_name: 'Παπαδόπουλος' } });
    for (const typed of ['ΠΑΠΑΔΟΠΟΥΛΟΣ', 'παπαδοπουλος', 'Παπαδόπουλος', 'παπαδ', 'ΕΛΕΝΗ']) expect(await found(foldName(typed)), typed).toEqual([user!.id]);
  });

  it('follows every write of the answers: found by a name after it is saved, and no longer by one removed', async () => {
    const [user] = await migrated.db.insert(users).values({ username: 'fold@example.com', passwordHash: 'x' }).returning({ id: users.id });
    const userId = user!.id;
    await migrated.db.insert(applications).values({ userId, answer: { first_name: 'José', last_name: 'Núñez' } });
    expect(await stored(userId)).toBe('José  Núñez ');
    expect(await found('nunez')).toEqual([userId]);
    await migrated.db.update(applications).set({ answer: sql`answer || '{"hs_name": "East High"}'::jsonb` }).where(eq(applications.userId, userId));
    expect(await stored(userId)).toBe('José  Núñez East High');
    expect(await found('east')).toEqual([userId]);
    await migrated.db.update(applications).set({ answer: sql`answer || '{"preferred_name": "Pepe"}'::jsonb` }).where(eq(applications.userId, userId));
    expect(await found('pepe')).toEqual([userId]);
    await migrated.db.update(applications).set({ answer: sql`answer - 'first_name'` }).where(eq(applications.userId, userId));
    expect(await stored(userId)).toBe(' Pepe Núñez East High');
    expect(await found('jose')).toEqual([]);
    expect(await found('nunez')).toEqual([userId]);
  });
});
