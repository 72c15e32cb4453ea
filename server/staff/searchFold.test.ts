import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf, type Database } from '../infra/db';
import { fold } from '../lookup/searchText';
import { neutralised } from './export';
import { foldSql } from './searchFold';

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
