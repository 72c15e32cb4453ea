import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import JSZip from 'jszip';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportTemplateMessages, starterTemplate } from '../../domain/exportTemplates';
import { rowsOf } from '../infra/db';
import { applications, auditLog, decisions, documents, exportRunApplicants, users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';
import { createStorage } from '../infra/storage';
import { createRun, executeRun, runFailureMessages } from './run';
import { exportMessages } from './templates';

/** What applicants typed, as a loader must receive it: none of it changed on the way. */
const TYPED = {
  first_name: '王',
  preferred_name: '美玲 🎓',
  last_name: "O'Connor, \"Jr\"",
  phone_international: '+44 20 7946 0958',
  city: '=HYPERLINK("x")',
  entry_term: 'Fall 2027',
  // An essay: a leading dash, line breaks of both kinds, a tab, quotes, commas and a backslash.
  accommodations: '- First, I "learnt"\r\nthat\tcommas, and\nlines\rmatter (a\\b too).',
} as const;

describe('export templates: files a loader takes exactly as typed, runs of changes (issue 32)', () => {
  let t: TestApp;
  let admin = '';
  let reader = '';
  const ids: Record<string, string> = {};
  const cookies: Record<string, string> = {};
  beforeAll(async () => {
    t = await testApp();
    admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
    reader = await staffSignIn(t, await setUpStaff(t, 'reader'));
  }, 60_000);
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object, cookie = admin) => t.app.inject({ method, url, payload, headers: { cookie } });
  async function applicant(username: string, answer: Record<string, string>, submitted: boolean) {
    const cookie = await signedInCookie(t, username);
    const saved = await t.app.inject({ method: "PUT", url: "/api/answer", payload: answer, headers: { cookie } });
    expect(saved.statusCode, saved.body).toBe(200);
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
    if (submitted) await t.database.db.update(applications).set({ submittedAt: new Date() }).where(eq(applications.userId, user!.id));
    ids[username] = user!.id;
    cookies[username] = cookie;
    return { id: user!.id, cookie };
  }
  const contractTemplate = (name: string, format: string, change: object = {}) => {
    const { codeTables, schedule, ...rest } = starterTemplate(name);
    return {
      ...rest,
      schedule: { every: schedule.every, hour_utc: schedule.hourUtc },
      format,
      code_tables: { terms: { 'Fall 2027': '202710', 'Spring 2028': '202820' }, ...codeTables },
      columns: [
        { field: 'application_number', header: 'APPL_NO', codes: null },
        { field: 'email', header: 'EMAIL', codes: null },
        ...Object.keys(TYPED).map((field) => ({ field, header: field.toUpperCase(), codes: field === 'entry_term' ? 'terms' : null })),
        { field: 'checklist_state', header: 'CHECKLIST', codes: null },
        { field: 'decision', header: 'DECISION', codes: null },
      ],
      ...change,
    };
  };
  async function run(template: number, mode: 'changes' | 'all' = 'changes') {
    const started = await call('POST', `/staff/api/export-templates/${template}/runs`, { mode });
    expect(started.statusCode, started.body).toBe(202);
    const id = started.json().id as number;
    // The run is a job: its record says when it has ended.
    await expect.poll(async () => (await call('GET', `/staff/api/export-runs/${id}`)).json().status, { timeout: 30_000, interval: 50 }).not.toBe('running');
    const ended = (await call('GET', `/staff/api/export-runs/${id}`)).json();
    const file = await call('GET', `/staff/api/export-runs/${id}/file`);
    return { run: ended, file };
  }

  it('writes CSV (RFC 4180, CRLF, no BOM), tab-delimited (quoted, and IANA) and JSON Lines that real parsers read back to every typed value; only the spreadsheet flavour neutralises', async () => {
    await applicant('typed@example.com', TYPED, true);
    await applicant('other-term@example.com', { first_name: 'Ana', entry_term: 'Fall 2028' }, true);
    await applicant('in-progress@example.com', { first_name: 'Draft' }, false);
    const parsed: Record<string, Record<string, string>[]> = {};
    for (const format of ['csv', 'tsv', 'tsv_iana', 'jsonl', 'spreadsheet']) {
      const created = await call('POST', '/staff/api/export-templates', contractTemplate(`Typed ${format}`, format));
      expect(created.statusCode, created.body).toBe(201);
      const { run: ended, file } = await run(created.json().id);
      expect(ended).toMatchObject({ status: 'succeeded', rows: 2, unmapped: { ENTRY_TERM: 1 }, file_name: `typed-${format.replace('_', '-')}-${ended.id}.${{ spreadsheet: 'csv', tsv_iana: 'tsv' }[format] ?? format}` });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-disposition']).toBe(`attachment; filename="${ended.file_name}"`);
      const body = file.body;
      if (format === 'jsonl') {
        parsed[format] = body
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line));
        continue;
      }
      if (format === 'tsv_iana') {
        // IANA tab-separated values (issue 51): no quote anywhere, LF after each record, a value's
        // tabs, line breaks and backslashes escaped; read back by splitting on tabs and lines.
        expect(file.headers['content-type']).toBe('text/tab-separated-values; charset=utf-8');
        expect(body.endsWith('\n') && !body.includes('\r')).toBe(true);
        const unescape = (field: string) => field.replace(/\\([tnr\\])/g, (_match, char: string) => ({ t: '\t', n: '\n', r: '\r', '\\': '\\' })[char]!);
        const [header, ...lines] = body.split('\n').filter(Boolean).map((line) => line.split('\t').map(unescape));
        parsed[format] = lines.map((fields) => Object.fromEntries(header!.map((name, i) => [name, fields[i]!])));
        continue;
      }
      expect(body.startsWith('\ufeff')).toBe(format === 'spreadsheet');
      // Every record ends in CRLF; a bare LF or CR appears only inside a quoted value.
      expect(body.endsWith('\r\n')).toBe(true);
      parsed[format] = parse(body, { bom: true, columns: true, delimiter: format === 'tsv' ? '\t' : ',', record_delimiter: '\r\n' });
    }
    for (const format of ['csv', 'tsv', 'tsv_iana', 'jsonl']) {
      const typed = parsed[format]!.find((row) => row.EMAIL === 'typed@example.com')!;
      for (const [key, value] of Object.entries(TYPED)) expect(typed[key.toUpperCase()], `${format} ${key}`).toBe(key === 'entry_term' ? '202710' : value);
      expect(typed.CHECKLIST).toBe(format === 'jsonl' ? null : '');
      // The term no code lists leaves as stored (and the run counted it).
      expect(parsed[format]!.find((row) => row.EMAIL === 'other-term@example.com')!.ENTRY_TERM).toBe('Fall 2028');
    }
    expect(parsed.jsonl!.find((row) => row.EMAIL === 'typed@example.com')!.APPL_NO).toEqual(expect.any(Number));
    const sheet = parsed.spreadsheet!.find((row) => row.EMAIL === 'typed@example.com')!;
    expect([sheet.PHONE_INTERNATIONAL, sheet.CITY, sheet.ACCOMMODATIONS]).toEqual(["'+44 20 7946 0958", `'${TYPED.city}`, `'${TYPED.accommodations}`]);
    expect(sheet.FIRST_NAME).toBe('王');
  });

  it('neutralises the spreadsheet file’s header row as it does its cells: a column named like a formula is text (issue 49, item 12)', async () => {
    const created = await call('POST', '/staff/api/export-templates', contractTemplate('Formula header', 'spreadsheet', { columns: [{ field: 'email', header: '=HYPERLINK("http://x.example","y")', codes: null }, { field: 'application_number', header: 'APPL_NO', codes: null }] }));
    expect(created.statusCode, created.body).toBe(201);
    const { file } = await run(created.json().id, 'all');
    const [header] = parse(file.body, { bom: true, record_delimiter: '\r\n' }) as string[][];
    expect(header).toEqual([`'=HYPERLINK("http://x.example","y")`, 'APPL_NO']);
  });

  it('says why a run failed in words, never with the server’s paths: a full disk while storing the file (issue 49, item 12)', async () => {
    const created = await call('POST', '/staff/api/export-templates', contractTemplate('Disk full', 'csv'));
    const made = await createRun(t.database.db, created.json().id, 'all', 'schedule');
    const real = createStorage(t.config);
    const full = { ...real, putFile: async () => Promise.reject(Object.assign(new Error(`ENOSPC: no space left on device, copyfile '/tmp/export-run-abc/file' -> '${t.config.dataDir}/files/exports/x.csv.copying'`), { code: 'ENOSPC' })) };
    await expect(executeRun({ db: t.database.db, storage: full }, made!.id)).rejects.toThrow(/ENOSPC/);
    const shown = (await call('GET', `/staff/api/export-runs/${made!.id}`)).json();
    expect([shown.status, shown.message]).toEqual(['failed', runFailureMessages.storage]);
  });

  it('takes each change once: a second run carries nothing, then only what changed (a save, a checklist, a released decision), each with its updated_at moved', async () => {
    const changes = contractTemplate('Changes', 'jsonl', { filter: { stages: ['submitted', 'in_progress'], terms: [], decisions: [], checklist: 'any' } });
    changes.columns.push({ field: 'updated_at', header: 'UPDATED', codes: null });
    const created = await call('POST', '/staff/api/export-templates', changes);
    const template = created.json().id as number;
    const first = await run(template);
    expect(first.run.rows).toBe(3);
    const linesOf = (body: string) =>
      body
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, string>);
    const updatedAt = (body: string) => new Map(linesOf(body).map((line) => [line.EMAIL!, Date.parse(line.UPDATED!)]));
    const updatedFirst = updatedAt(first.file.body);
    expect((await run(template)).run.rows).toBe(0);

    const typed = ids['typed@example.com']!;
    const other = ids['other-term@example.com']!;
    const save = await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { last_name: 'Saved' }, headers: { cookie: cookies['in-progress@example.com']! } });
    expect(save.statusCode).toBe(200);
    await t.database.db.update(applications).set({ checklistMissing: ['transcript'] }).where(eq(applications.userId, typed));
    await t.database.db.insert(decisions).values({ userId: other, decision: 'admit', decidedByEmail: 'd@example.edu', decidedAt: new Date(), releaseAt: new Date(Date.now() - 1000) });
    const third = await run(template);
    const lines = third.file.body
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.EMAIL).sort()).toEqual(['in-progress@example.com', 'other-term@example.com', 'typed@example.com']);
    expect(lines.find((line) => line.EMAIL === 'other-term@example.com').DECISION).toBe('admit');
    expect(lines.find((line) => line.EMAIL === 'typed@example.com').CHECKLIST).toBe('incomplete');
    // Each change moved the row's updated_at, not only the applicant's save (issue 51).
    const updatedThird = updatedAt(third.file.body);
    for (const email of ['in-progress@example.com', 'other-term@example.com', 'typed@example.com']) expect(updatedThird.get(email), email).toBeGreaterThan(updatedFirst.get(email)!);
    expect((await run(template)).run.rows).toBe(0);
    // A withdrawal too.
    await t.database.db.update(applications).set({ withdrawnAt: new Date(), withdrawnReason: 'Elsewhere.', withdrawnBy: 'd@example.edu' }).where(eq(applications.userId, typed));
    const withdrawn = await run(template);
    expect(updatedAt(withdrawn.file.body).get('typed@example.com')).toBeGreaterThan(updatedThird.get('typed@example.com')!);
    await t.database.db.update(applications).set({ withdrawnAt: null, withdrawnReason: null, withdrawnBy: null }).where(eq(applications.userId, typed));
    expect((await run(template)).run.rows).toBe(1);
    // A full run takes everything again, and the cursor stays past it.
    expect((await run(template, 'all')).run.rows).toBe(3);
    expect((await run(template)).run.rows).toBe(0);
  });

  it('leaves a value its code table does not list as stored, blank, or fails the run naming it, as the template says (issue 51)', async () => {
    const columns = [
      { field: 'email', header: 'EMAIL', codes: null },
      { field: 'entry_term', header: 'TERM', codes: 'terms' },
    ];
    const make = async (name: string, unmapped?: string) => {
      const created = await call('POST', '/staff/api/export-templates', contractTemplate(name, 'jsonl', { columns, ...(unmapped ? { unmapped_values: unmapped } : {}) }));
      expect(created.statusCode, created.body).toBe(201);
      return created.json().id as number;
    };
    const termOf = async (template: number) => {
      const { run: ended, file } = await run(template, 'all');
      expect(ended).toMatchObject({ status: 'succeeded', unmapped: { TERM: 1 } });
      const lines = file.body.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, string>);
      return lines.find((line) => line.EMAIL === 'other-term@example.com')!.TERM;
    };
    const kept = await make('Unlisted kept');
    expect((await call('GET', `/staff/api/export-templates/${kept}`)).json().unmapped_values).toBe('keep');
    expect(await termOf(kept)).toBe('Fall 2028');
    expect(await termOf(await make('Unlisted blank', 'blank'))).toBeNull();

    const failing = await make('Unlisted fails', 'fail');
    const { run: failed, file } = await run(failing);
    const [number] = rowsOf<{ n: number }>(await t.database.db.execute(sql`select application_number as n from applications where user_id = ${ids['other-term@example.com']!}`));
    expect(failed).toMatchObject({ status: 'failed', file_name: null, message: `Column TERM: “Fall 2028” (application ${number!.n}) is not in its code table, and the template fails the run on such a value. Add it to the table, or choose to keep or blank such values.` });
    expect(file.statusCode).toBe(404);
    // The cursor stayed: once the table lists the value, the next run of changes carries them all.
    const detail = (await call('GET', `/staff/api/export-templates/${failing}`)).json();
    const { id: _id, cursor_at: _cursor, updated_by: _by, updated_at: _at, ...body } = detail;
    expect((await call('PUT', `/staff/api/export-templates/${failing}`, { ...body, code_tables: { terms: { 'Fall 2027': '202710', 'Fall 2028': '202810' } } })).statusCode).toBe(200);
    expect((await run(failing)).run).toMatchObject({ status: 'succeeded', rows: 2, unmapped: {} });
  });

  it('records who ran and downloaded which applicants; the audit log finds a run by applicant', async () => {
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'export_download'));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries[0]!.detail).toEqual({ template: 'Typed csv', run: expect.any(Number), rows: 2 });
    const carried = await t.database.db.select().from(exportRunApplicants).where(eq(exportRunApplicants.runId, Number(entries[0]!.detail!.run)));
    expect(carried.map((row) => row.userId).sort()).toEqual([ids['typed@example.com'], ids['other-term@example.com']].sort());
    const page = (await call('GET', `/staff/api/audit?application=${ids['typed@example.com']}`)).json();
    const actions = new Set(page.items.map((entry: { action: string }) => entry.action));
    expect(actions).toContain('export_run');
    expect(actions).toContain('export_download');
    const draftPage = (await call('GET', `/staff/api/audit?application=${ids['in-progress@example.com']}`)).json();
    // The draft left only in the "Changes" template's runs, never in the submitted-only ones.
    expect(draftPage.items.filter((entry: { action: string; detail: { template?: string } }) => entry.action === 'export_run' && entry.detail.template === 'Changes').length).toBeGreaterThan(0);
    expect(draftPage.items.filter((entry: { detail: { template?: string } }) => entry.detail.template?.startsWith('Typed'))).toEqual([]);
  });

  it('carries the documents as a zip with a manifest whose checksums match each file, when the template says so', async () => {
    const { id } = await applicant('with-documents@example.com', { first_name: 'Doc' }, true);
    const pdf = Buffer.from('%PDF-1.4\n% a converted transcript\n%%EOF\n');
    const pdfKey = `pdfs/${id}/transcript.pdf`;
    mkdirSync(path.join(t.config.dataDir, 'files', 'pdfs', id), { recursive: true });
    writeFileSync(path.join(t.config.dataDir, 'files', pdfKey), pdf);
    const [document] = await t.database.db
      .insert(documents)
      .values({ userId: id, answerKey: 'additional_info_doc', fileKey: `uploads/${id}/x`, fileName: 'Transcript, "final".png', status: 'completed', pdfKey })
      .returning({ id: documents.id });
    const created = await call('POST', '/staff/api/export-templates', contractTemplate('With documents', 'csv', { documents: true, filter: { stages: ['submitted'], terms: [], decisions: [], checklist: 'any' } }));
    const { run: ended } = await run(created.json().id);
    expect(ended.bundle_file_name).toBe(`with-documents-${ended.id}-documents.zip`);
    const zipped = await call('GET', `/staff/api/export-runs/${ended.id}/documents`);
    expect([zipped.statusCode, zipped.headers['content-type']]).toEqual([200, 'application/zip']);
    const zip = await JSZip.loadAsync(zipped.rawPayload);
    const manifest = parse(await zip.file('manifest.csv')!.async('string'), { columns: true, record_delimiter: '\r\n' }) as Record<string, string>[];
    const carried = parse((await call('GET', `/staff/api/export-runs/${ended.id}/file`)).body, { columns: true, record_delimiter: '\r\n' }) as Record<string, string>[];
    const number = carried.find((row) => row.EMAIL === 'with-documents@example.com')!.APPL_NO!;
    expect(manifest).toEqual([
      { document_id: document!.id, application_id: id, application_number: number, kind: 'form', item: 'additional_info_doc', file_name: 'Transcript, "final".png', path: `${number}/form-additional_info_doc-${document!.id.slice(0, 8)}.pdf`, sha256: createHash('sha256').update(pdf).digest('hex') },
    ]);
    expect(Buffer.from(await zip.file(manifest[0]!.path!)!.async('uint8array'))).toEqual(pdf);
    const downloads = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'export_download'));
    expect(downloads.at(-2)!.detail).toEqual({ template: 'With documents', run: ended.id, rows: ended.rows, part: 'documents' });
    // A template without documents has none to give.
    const typed = (await call('GET', '/staff/api/export-runs')).json().runs.find((each: { template_name: string }) => each.template_name === 'Typed csv');
    expect((await call('GET', `/staff/api/export-runs/${typed.id}/documents`)).json().message).toBe(exportMessages.noDocuments);
  });

  it('refuses a bad template with the spec of each fault, a taken name, readers, and unknown ids', async () => {
    const bad = await call('POST', '/staff/api/export-templates', { ...contractTemplate('Bad', 'csv'), columns: [{ field: 'shoe_size', header: 'X', codes: 'nope' }] });
    expect([bad.statusCode, bad.json().errors.columns]).toEqual([400, ['"shoe_size" is not a field of the application.', 'There is no code table named "nope".']]);
    const taken = await call('POST', '/staff/api/export-templates', contractTemplate('Changes', 'csv'));
    expect([taken.statusCode, taken.json().message]).toEqual([409, exportTemplateMessages.nameTaken]);
    expect((await call('GET', '/staff/api/export-templates', undefined, reader)).statusCode).toBe(403);
    expect((await call('GET', '/staff/api/export-runs/999999', undefined, reader)).statusCode).toBe(403);
    const missing = await call('POST', '/staff/api/export-templates/999999/runs', { mode: 'changes' });
    expect([missing.statusCode, missing.json().message]).toEqual([404, exportMessages.templateNotFound]);
    expect((await call('GET', '/staff/api/export-runs/999999/file')).json().message).toBe(exportMessages.runNotFound);
    const list = (await call('GET', '/staff/api/export-templates')).json();
    expect(list.templates.map((template: { name: string }) => template.name)).toContain('Changes');
    const changes = list.templates.find((template: { name: string }) => template.name === 'Changes');
    expect(changes.last_run).toMatchObject({ status: 'succeeded', rows: 0 });
    // Removing a template leaves its runs on record.
    expect((await call('DELETE', `/staff/api/export-templates/${changes.id}`)).statusCode).toBe(204);
    const runs = (await call('GET', '/staff/api/export-runs')).json().runs;
    expect(runs.some((run: { template_name: string; template_id: number | null }) => run.template_name === 'Changes' && run.template_id === null)).toBe(true);
    const changed = rowsOf<{ action: string; detail: { change: string } }>(await t.database.db.execute(sql`select action, detail from audit_log where action = 'export_template_change' order by id`));
    // Each template made, the one edited (the code table), the one removed.
    expect(changed.map((row) => row.detail.change).sort()).toEqual([...Array<string>(12).fill('create'), 'delete', 'update']);
  });
  it('carries the committee’s reviews: how many, the composite, each scale’s mean, each recommendation’s count and each review’s columns (issue 51 §1)', async () => {
    const { id } = await applicant('reviewed@example.com', { first_name: 'Ana' }, true);
    await applicant('unreviewed@example.com', { first_name: 'Ben' }, true);
    const secondReader = await staffSignIn(t, await setUpStaff(t, 'reader'));
    const review = (cookie: string, academics: number, recommendation: string, comment: string) =>
      call('POST', `/staff/api/applications/${id}/reviews`, { form_version: 0, ratings: { Academics: academics, Essay: 3, Activities: 2 }, recommendation, comment }, cookie);
    expect((await review(reader, 4, 'Admit', 'Strong, "quoted", and\nover two lines.')).statusCode).toBe(201);
    expect((await review(secondReader, 3, 'Waitlist', '')).statusCode).toBe(201);
    const columns = [
      { field: 'email', header: 'EMAIL', codes: null },
      { field: 'review_count', header: 'REVIEWS', codes: null },
      { field: 'composite_score', header: 'COMPOSITE', codes: null },
      { field: 'scale_mean_academics', header: 'ACADEMICS', codes: null },
      { field: 'recommended_admit', header: 'ADMITS', codes: null },
      { field: 'recommended_deny', header: 'DENIES', codes: null },
      { field: 'review_1_recommendation', header: 'R1_REC', codes: null },
      { field: 'review_1_rating_academics', header: 'R1_ACADEMICS', codes: null },
      { field: 'review_1_comment', header: 'R1_COMMENT', codes: null },
      { field: 'review_2_recommendation', header: 'R2_REC', codes: 'recommendations' },
      { field: 'review_3_reviewer', header: 'R3_REVIEWER', codes: null },
    ];
    const created = await call('POST', '/staff/api/export-templates', contractTemplate('With reviews', 'jsonl', { columns, code_tables: { recommendations: { Admit: 'A', Waitlist: 'W' } } }));
    expect(created.statusCode, created.body).toBe(201);
    const { run: ended, file } = await run(created.json().id, 'all');
    expect(ended).toMatchObject({ status: 'succeeded' });
    const lines = file.body.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.EMAIL === 'reviewed@example.com')).toEqual({
      EMAIL: 'reviewed@example.com',
      REVIEWS: 2,
      COMPOSITE: null,
      ACADEMICS: 3.5,
      ADMITS: 1,
      DENIES: 0,
      R1_REC: 'Admit',
      R1_ACADEMICS: 4,
      R1_COMMENT: 'Strong, "quoted", and\nover two lines.',
      R2_REC: 'W',
      R3_REVIEWER: null,
    });
    expect(lines.find((line) => line.EMAIL === 'unreviewed@example.com')).toMatchObject({ REVIEWS: 0, ACADEMICS: null, ADMITS: 0, R1_REC: null });
    // A field of the committee's that is not one: named as the others are.
    const bad = await call('POST', '/staff/api/export-templates', { ...contractTemplate('Bad review', 'csv'), columns: [{ field: 'review_11_reviewer', header: 'X', codes: null }] });
    expect(bad.json().errors.columns).toEqual(['"review_11_reviewer" is not a field of the application.']);
  });
});
