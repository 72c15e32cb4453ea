import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../testing/app';
import { rowsOf } from '../infra/db';
import { postgresReason } from '../testing/db';
import { lookupMessages } from './handlers';
import { fold, prefixQuery } from '../office/searchText';
import { cityName, parseLookupFile, titleCase, type LookupRecord } from './sources';
import { importLookupFile, replaceLookups, seedLookups } from './store';

const pgReason = await postgresReason();
if (pgReason) console.warn(`SKIPPED (lookup ranking on PostgreSQL): ${pgReason}`);

describe('folding', () => {
  it('ignores case, accents and punctuation, drops apostrophes and reads & as and', () => {
    expect(fold('  Luis MUÑOZ Marín ')).toBe('luis munoz marin');
    expect(fold("St. Mary's Academy")).toBe('st marys academy');
    expect(fold('Alabama A & M University')).toBe('alabama a and m university');
    expect(fold('Straße-Øst')).toBe('strasse ost');
    expect(fold('!!!')).toBe('');
  });

  it('makes every word a prefix and gives no query for text without letters or digits', () => {
    expect(prefixQuery('east hi')).toBe('east:* & hi:*');
    expect(prefixQuery('')).toBeNull();
    expect(prefixQuery('a b c d e f g h i j')?.split(' & ')).toHaveLength(8);
  });
});

describe('reading lookup files', () => {
  it('reads the high-school crosswalk: six-digit CEEB codes, title-case cities, NA as missing', () => {
    const csv = [
      '"HS_CEEB","HS_NCES","HS_CITY","MATCH_NAME","HS_POSTAL_CD","HS_STATE","HS_NAME","MATCH_SCORE","MATCH_SOURCE","HS_DUPED"',
      '"20239","020052000242","HOLY CROSS","Holy Cross School","99602","AK","Holy Cross School",NA,0,FALSE',
      '"576520","580000300050","APO","A. T. Mahan High School","09728","AE","A. T. Mahan High School",NA,0,FALSE',
      '"x1","1","CITY","Bad","1","CO","Bad",NA,0,FALSE',
      '"020239","1","HOLY CROSS","Again","99602","AK","Again",NA,0,FALSE',
    ].join('\n');
    const parsed = parseLookupFile(csv);
    expect(parsed.format).toBe('nces-ceeb-crosswalk');
    expect(parsed.records).toEqual([
      { category: 'hs_ceeb', id: '020239', name: 'Holy Cross School', ceeb: '020239', city: 'Holy Cross', stateCode: 'AK', zip: '99602', country: 'USA', active: true },
      { category: 'hs_ceeb', id: '576520', name: 'A. T. Mahan High School', ceeb: '576520', city: 'APO', stateCode: 'AE', zip: '09728', country: 'USA', active: true },
    ]);
    expect(parsed.skipped).toEqual(['line 4: the CEEB code "x1" is not up to six digits', 'line 5: 020239 is listed twice; the first is kept']);
  });

  it('reads the IPEDS directory: UNITID as id, aliases searchable, closed colleges marked', () => {
    const csv = [
      'UNITID,INSTNM,IALIAS,CITY,STABBR,ZIP,WEBADDR,SECTOR,ICLEVEL,CONTROL,DEGGRANT,CYACTIVE,CLOSEDAT',
      '100663,University of Alabama at Birmingham,UAB,Birmingham,AL,35294-0110,https://www.uab.edu/,1,1,1,1,1,-2',
      '999999,Closed College,,Denver,CO,80206,,1,1,1,1,3,05/27/2022',
    ].join('\n');
    const parsed = parseLookupFile(csv);
    expect(parsed.format).toBe('ipeds-hd');
    expect(parsed.records[0]).toMatchObject({ category: 'college_ceeb', id: '100663', aliases: 'UAB', zip: '35294-0110', active: true });
    expect(parsed.records[1]).toMatchObject({ id: '999999', active: false });
  });

  it("reads the portal's own CSV, with states as codes or names, and names rows it cannot use", () => {
    const parsed = parseLookupFile('category,id,name,city,state,zip\nhs_ceeb,123456,Test School,Boulder,Colorado,80302\nplanets,1,Mars,,,\n');
    expect(parsed.format).toBe('portal-csv');
    expect(parsed.records).toEqual([
      expect.objectContaining({ category: 'hs_ceeb', id: '123456', name: 'Test School', stateCode: 'CO', country: 'USA' }),
    ]);
    expect(parsed.skipped).toEqual(['line 3: the category "planets" is not one of hs_ceeb, college_ceeb, address']);
  });

  it('refuses a file in another format with a message saying which formats it reads', () => {
    expect(() => parseLookupFile('a,b\n1,2\n')).toThrow(/NCES–CEEB crosswalk .* IPEDS HD directory .* category,id,name/);
  });

  it('keeps military post offices in capitals and title-cases names written in one case', () => {
    expect(cityName('FPO')).toBe('FPO');
    expect(cityName('ST. LOUIS')).toBe('St. Louis');
    expect(cityName("COEUR D'ALENE")).toBe("Coeur D'Alene");
    expect(cityName(' Miami Lakes FL')).toBe('Miami Lakes FL');
    expect(titleCase('spartanburg day school')).toBe('Spartanburg Day School');
    expect(titleCase('Denver School Of The Arts')).toBe('Denver School Of The Arts');
  });
});

/** A small list whose order the ranking rules decide on their own. */
const rankingList: LookupRecord[] = [
  { category: 'hs_ceeb', id: '000001', name: 'Northeast High School', ceeb: '000001', city: 'Eastville', stateCode: 'TX', zip: '75001', country: 'USA', active: true },
  { category: 'hs_ceeb', id: '000002', name: 'East High School', ceeb: '000002', city: 'Denver', stateCode: 'CO', zip: '80206', country: 'USA', active: true },
  { category: 'hs_ceeb', id: '000003', name: 'Eastlake High School', ceeb: '000003', city: 'Sammamish', stateCode: 'WA', zip: '98074', country: 'USA', active: true },
  { category: 'hs_ceeb', id: '000004', name: 'Lake East High School', ceeb: '000004', city: 'Houston', stateCode: 'TX', zip: '77001', country: 'USA', active: true },
  { category: 'hs_ceeb', id: '000005', name: 'East', ceeb: '000005', city: 'Austin', stateCode: 'TX', zip: '73301', country: 'USA', active: true },
  { category: 'hs_ceeb', id: '000006', name: 'Colegio Muñoz Rivera', ceeb: '000006', city: 'San Juan', stateCode: 'PR', zip: '00901', country: 'USA', active: true },
  { category: 'college_ceeb', id: '100001', name: 'East College', city: 'Denver', stateCode: 'CO', zip: '80206', country: 'USA', active: false },
  { category: 'college_ceeb', id: '100002', name: 'East State University', city: 'Boulder', stateCode: 'CO', zip: '80302', country: 'USA', active: true, aliases: 'ESU' },
  { category: 'college_ceeb', id: '100003', name: 'Colorado Mesa University', city: 'Grand Junction', stateCode: 'CO', zip: '81501', country: 'USA', active: true },
  { category: 'college_ceeb', id: '100004', name: 'University of Colorado Boulder', city: 'Boulder', stateCode: 'CO', zip: '80309', country: 'USA', active: true },
  { category: 'college_ceeb', id: '100005', name: 'Regis University', city: 'Denver', stateCode: 'CO', zip: '80221', country: 'USA', active: true, aliases: 'Regis College of Colorado' },
  { category: 'address', id: '80206', name: '80206', city: 'Denver', stateCode: 'CO', zip: '80206', country: 'USA', active: true },
  { category: 'address', id: '80302', name: '80302', city: 'Boulder', stateCode: 'CO', zip: '80302', country: 'USA', active: true },
];

describe.each([
  ['pglite', null],
  ['postgres', pgReason],
] as const)('/lookup/find on %s', (kind, skipReason) => {
  describe.skipIf(skipReason !== null)('', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp({ kind });
      await replaceLookups(t.database.db, rankingList, 'ranking test list');
    });
    afterAll(async () => t?.close());

    const find = async (query: string) => {
      const response = await t.app.inject({ method: 'GET', url: `/lookup/find?${query}` });
      return { status: response.statusCode, body: response.json() };
    };
    const names = async (query: string) => ((await find(query)).body as { text: string }[]).map((s) => s.text);

    it('ranks the whole name, then names starting with the text, then a word starting with it, then every word anywhere', async () => {
      expect(await names('category=hs_ceeb&text=east&max_results=10')).toEqual([
        'East',
        'East High School',
        'Eastlake High School',
        'Lake East High School',
        'Northeast High School', // its city, Eastville, starts with "east"
      ]);
      // "Eastlake High" does not start with "east high", "Lake East High" has a word that does.
      expect(await names('category=hs_ceeb&text=east%20high&max_results=10')).toEqual(['East High School', 'Lake East High School', 'Eastlake High School', 'Northeast High School']);
      // Words in another order only match word by word: shorter names first.
      expect(await names('category=hs_ceeb&text=high%20east')).toEqual(['East High School', 'Eastlake High School', 'Lake East High School', 'Northeast High School']);
    });

    it('puts names holding every word first, those starting with the first word before the others, then other names', async () => {
      expect(await names('category=college_ceeb&text=univ%20colorado')).toEqual(['University of Colorado Boulder', 'Colorado Mesa University', 'Regis University']);
    });

    it('matches whatever the case and accents, and finds a school by its city, state or CEEB code', async () => {
      expect(await names('category=hs_ceeb&text=MUNOZ')).toEqual(['Colegio Muñoz Rivera']);
      expect(await names('category=hs_ceeb&text=mu%C3%B1oz%20riv')).toEqual(['Colegio Muñoz Rivera']);
      expect(await names('category=hs_ceeb&text=denver')).toEqual(['East High School']);
      expect(await names('category=college_ceeb&text=denver')).toEqual(['Regis University', 'East College']);
      expect(await names('category=hs_ceeb&text=east%20co')).toEqual(['East High School']);
      expect(await names('category=hs_ceeb&text=000004')).toEqual(['Lake East High School']);
    });

    it('answers text, id and sub_text: city, state code and ZIP', async () => {
      const { status, body } = await find('category=hs_ceeb&text=east%20high%20school&max_results=1');
      expect(status).toBe(200);
      expect(body).toEqual([{ text: 'East High School', id: '000002', sub_text: 'Denver, CO 80206' }]);
    });

    it('gives at most max_results suggestions, 5 when not asked', async () => {
      expect(await names('category=hs_ceeb&text=high&max_results=2')).toHaveLength(2);
      expect(await names('category=hs_ceeb&text=e')).toHaveLength(5);
    });

    it('gives an empty list when nothing matches or the text has no letters or digits', async () => {
      expect(await find('category=hs_ceeb&text=zzzz')).toEqual({ status: 200, body: [] });
      expect(await find('category=hs_ceeb&text=%21%21%21')).toEqual({ status: 200, body: [] });
    });

    it('returns the record of an id with the form’s option values: the state’s name and the country code', async () => {
      expect(await find('category=hs_ceeb&id=000002')).toEqual({
        status: 200,
        body: { id: '000002', name: 'East High School', ceeb: '000002', city: 'Denver', state: 'Colorado', zip: '80206', country: 'USA' },
      });
      expect(await find('category=hs_ceeb&id=999999')).toEqual({ status: 404, body: { message: lookupMessages.notFound } });
    });

    it('lists colleges by name and other names, closed ones last and marked', async () => {
      expect(await find('category=college_ceeb&text=east')).toEqual({
        status: 200,
        body: [
          { text: 'East State University', id: '100002', sub_text: 'Boulder, CO 80302' },
          { text: 'East College', id: '100001', sub_text: 'Denver, CO 80206 (closed)' },
        ],
      });
      expect(await names('category=college_ceeb&text=esu')).toEqual(['East State University']);
    });

    it('finds ZIP codes by their digits or their city, and gives city, state and country for one', async () => {
      expect(await names('category=address&text=802')).toEqual(['80206']);
      expect((await find('category=address&text=80')).body).toEqual([
        { text: '80206', id: '80206', sub_text: 'Denver, CO' },
        { text: '80302', id: '80302', sub_text: 'Boulder, CO' },
      ]);
      expect(await names('category=address&text=boulder')).toEqual(['80302']);
      expect((await find('category=address&id=80206')).body).toEqual({ id: '80206', city: 'Denver', state: 'Colorado', zip: '80206', country: 'USA' });
    });

    it('searches schools and colleges together for name, with ids that say which list', async () => {
      const { body } = await find('category=name&text=east%20st');
      expect(body).toEqual([{ text: 'East State University', id: 'college_ceeb:100002', sub_text: 'College · Boulder, CO 80302' }]);
      expect((await find('category=name&id=college_ceeb:100002')).body).toMatchObject({ id: 'college_ceeb:100002', name: 'East State University', state: 'Colorado' });
      expect((await find('category=name&id=000002')).status).toBe(404);
      expect((await find('category=name&id=address:80206')).status).toBe(404);
    });
  });
});

describe('/lookup/find refuses bad input with 400 and a message', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ env: { RATE_LIMIT_SCALE: '0.005' } });
  });
  afterAll(async () => t?.close());
  const find = async (query: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/lookup/find?${query}`, remoteAddress: `10.0.0.${Math.floor(Math.random() * 250)}` });
    return { status: response.statusCode, body: response.json() };
  };

  it('empty or blank text', async () => {
    expect(await find('category=hs_ceeb&text=')).toEqual({
      status: 400,
      body: { message: 'The request is invalid. Please check the highlighted fields.', errors: { text: ['This field needs at least 1 character.'] } },
    });
    expect(await find('category=hs_ceeb&text=%20%20')).toEqual({ status: 400, body: { message: lookupMessages.emptyText, errors: { text: [lookupMessages.emptyText] } } });
  });

  it('an unknown or missing category', async () => {
    expect((await find('category=planets&text=east')).body.errors).toEqual({ category: ['This field must be one of: hs_ceeb, college_ceeb, address, name.'] });
    expect((await find('text=east')).body.errors).toEqual({ category: ['This field is required.'] });
  });

  it('max_results out of range or not a number', async () => {
    for (const [value, message] of [
      ['0', 'This field must be at least 1.'],
      ['21', 'This field must be at most 20.'],
      ['five', 'This field must be of type integer.'],
    ]) {
      const { status, body } = await find(`category=hs_ceeb&text=east&max_results=${value}`);
      expect(status).toBe(400);
      expect(body.errors).toEqual({ max_results: [message] });
    }
  });

  it('both text and id, or neither', async () => {
    expect(await find('category=hs_ceeb&text=east&id=1')).toEqual({ status: 400, body: { message: 'Give either text to search for or the id of a record, not both.' } });
    // Neither is its own fault: "not both" named the wrong one (issue 50).
    expect(await find('category=hs_ceeb')).toEqual({ status: 400, body: { message: 'Give text to search for (text) or the id of a record (id).' } });
  });

  it('text over 100 characters', async () => {
    const { status, body } = await find(`category=hs_ceeb&text=${'a'.repeat(101)}`);
    expect(status).toBe(400);
    expect(body.errors).toEqual({ text: ['This field can have at most 100 characters.'] });
  });

  it('too many lookups from one address: 429 with Retry-After (limit scaled down to 3 here)', async () => {
    const hit = () => t.app.inject({ method: 'GET', url: '/lookup/find?category=hs_ceeb&text=east', remoteAddress: '10.1.1.1' });
    for (let i = 0; i < 3; i++) expect((await hit()).statusCode).toBe(200);
    const refused = await hit();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});

describe('the shipped lists', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
    await seedLookups(t.database.db);
  }, 60_000);
  afterAll(async () => t?.close());
  const find = async (query: string) => (await t.app.inject({ method: 'GET', url: `/lookup/find?${query}` })).json();

  it('are loaded on first start: every school, college and US ZIP code', async () => {
    const counts = await t.database.db.execute('select category, count(*)::int as n from lookup_records group by category order by category' as never);
    expect(rowsOf(counts)).toEqual([
      { category: 'address', n: expect.any(Number) },
      { category: 'college_ceeb', n: 6256 },
      { category: 'hs_ceeb', n: 21434 }, // 21,435 rows; one has no name
    ]);
    expect(rowsOf<{ n: number }>(counts)[0]!.n).toBeGreaterThan(40_000);
  });

  it('are not loaded again on the next start, and an import replaces one category', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lookups-'));
    const file = path.join(dir, 'schools.csv');
    writeFileSync(file, 'category,id,name,city,state,zip\nhs_ceeb,123456,Only School,Boulder,CO,80302\n');
    await importLookupFile(t.database.db, file);
    await seedLookups(t.database.db);
    expect(await find('category=hs_ceeb&text=high')).toEqual([]);
    expect(await find('category=hs_ceeb&text=only')).toEqual([{ text: 'Only School', id: '123456', sub_text: 'Boulder, CO 80302' }]);
    expect((await find('category=college_ceeb&text=university%20of%20alabama')).length).toBe(5);
  });
});
