import { readdir, readFile, writeFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFString } from 'pdf-lib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWERED } from '../../domain/config';
import { completeApplication } from '../../domain/catalogue/completeApplication';
import { fileMessages } from '../../domain/messages';
import { loadConfig } from '../infra/config';
import { documents, materials, serviceTokens, users } from '../infra/schema';
import { STUCK_AFTER_MS, type Jobs } from '../infra/jobs';
import { requeueStuckJobs } from '../infra/stuckJobs';
import { createServiceToken } from '../service/tokens';
import { serviceMessages } from '../service/serviceView';
import { testApp, signedInCookie, type TestApp } from '../testing/app';
import { makeDocx, makeFixtureFiles, type FixtureFiles } from '../testing/files';
import { BrowserLimitError, openedAhead, withBrowserPage } from '../infra/browser';
import { MAX_FILE_BYTES } from '../../domain/config';
import { conversionMessages, convertToPdf, prepareInWorker } from '../files/convert';
import { prepareUpload } from '../files/prepare';
import { documentMessages } from './documents';
import { signLocalPolicy } from '../infra/uploadPolicy';

/** The longest the event loop went without running a 5 ms timer while `work` ran. */
async function longestStallDuring(work: () => Promise<unknown>): Promise<number> {
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(longest, performance.now() - last);
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

let t: TestApp;
let files: FixtureFiles;
let dataDir: string;

beforeAll(async () => {
  dataDir = (await import('node:fs')).mkdtempSync(path.join((await import('node:os')).tmpdir(), 'portal-docs-'));
  [t, files] = await Promise.all([testApp({ env: { DATA_DIR: dataDir } }), makeFixtureFiles()]);
}, 60_000);
afterAll(() => t.close());

async function presign(cookie: string, answerKey: string, contentType: string) {
  const response = await t.app.inject({ method: 'POST', url: '/api/presigned-url', headers: { cookie }, payload: { answer_key: answerKey, content_type: contentType } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { url: string; fields: Record<string, string> & { key: string } };
}

/** POSTs the fields and the file as a browser's form would, to the embedded upload target. */
function upload(fields: Record<string, string>, bytes: Buffer, name: string, type: string) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return t.app.inject({ method: 'POST', url: '/upload', payload: form });
}

async function conversionOf(cookie: string, key: string, until = ['completed', 'failed']) {
  // Bounded by time, not by tries: on a busy machine a conversion can take a minute.
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    const response = await t.app.inject({ method: 'GET', url: `/api/pdf/document-answer/${key}`, headers: { cookie } });
    const body = response.json() as { status: string; message?: string };
    if (until.includes(body.status)) return body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`conversion of ${key} never finished`);
}

/** presigned URL → upload → start conversion → wait; the whole client sequence. */
async function uploadAndConvert(cookie: string, key: string, bytes: Buffer, name: string, type: string) {
  const post = await presign(cookie, key, type);
  const stored = await upload(post.fields, bytes, name, type);
  expect(stored.statusCode, stored.body).toBe(204);
  const started = await t.app.inject({ method: 'POST', url: `/api/pdf/document-answer/${key}`, headers: { cookie }, payload: { file_key: post.fields.key, file_name: name } });
  expect(started.statusCode, started.body).toBe(202);
  expect(started.json()).toEqual({ status: 'unprocessed' });
  return { key: post.fields.key, status: await conversionOf(cookie, key) };
}

const storedFiles = async () => {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (entry.isDirectory()) await walk(path.join(dir, entry.name));
      else found.push(path.relative(path.join(dataDir, 'files'), path.join(dir, entry.name)));
    }
  };
  await walk(path.join(dataDir, 'files'));
  return found;
};

describe('document upload and conversion (embedded storage, PGlite)', () => {
  it.each([
    ['png', 'card.png', 'image/png'],
    ['jpeg', 'card.jpg', 'image/jpeg'],
    ['pdf', 'letter.pdf', 'application/pdf'],
    ['docx', 'essay.docx', DOCX],
  ] as const)('converts a %s to PDF: completed, listed with its size, marked ANSWERED', async (kind, name, type) => {
    const cookie = await signedInCookie(t);
    const { status } = await uploadAndConvert(cookie, 'additional_info_doc', files[kind], name, type);
    expect(status).toEqual({ status: 'completed' });
    const answers = await t.app.inject({ method: 'GET', url: '/api/document-answer', headers: { cookie } });
    expect(answers.json()).toEqual({ additional_info_doc: { file_name: name, file_size: files[kind].length } });
    const profile = (await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).json();
    expect(profile.document_answer.additional_info_doc.file_name).toBe(name);
    expect(profile.answer.additional_info_doc).toBe(ANSWERED);
  }, 60_000);

  it('refuses a renamed executable, an empty file and a file over 1 MB with the spec messages', async () => {
    const cookie = await signedInCookie(t);
    const exe = await upload((await presign(cookie, 'additional_info_doc', 'image/png')).fields, files.exe, 'photo.png', 'image/png');
    expect([exe.statusCode, exe.json().message]).toEqual([415, fileMessages.wrongType]);
    const empty = await upload((await presign(cookie, 'additional_info_doc', 'application/pdf')).fields, Buffer.alloc(0), 'empty.pdf', 'application/pdf');
    expect([empty.statusCode, empty.json().message]).toEqual([400, fileMessages.empty]);
    const big = Buffer.concat([files.pdf, Buffer.alloc(1_100_000 - files.pdf.length, 32)]);
    const large = await upload((await presign(cookie, 'additional_info_doc', 'application/pdf')).fields, big, 'big.pdf', 'application/pdf');
    expect([large.statusCode, large.json().message]).toEqual([413, fileMessages.tooLarge]);
    // A PNG sent under a policy signed for PDF does not match the real type either.
    const mismatch = await upload((await presign(cookie, 'additional_info_doc', 'application/pdf')).fields, files.png, 'x.pdf', 'application/pdf');
    expect(mismatch.statusCode).toBe(415);
    expect(await storedFiles()).not.toContainEqual(expect.stringContaining('big'));
  });

  it('refuses an upload whose policy was altered or signed by someone else', async () => {
    const cookie = await signedInCookie(t);
    const { fields } = await presign(cookie, 'additional_info_doc', 'image/png');
    const otherKey = await upload({ ...fields, key: fields.key.replace(/[^/]+$/, 'elsewhere') }, files.png, 'a.png', 'image/png');
    expect(otherKey.statusCode).toBe(403);
    const badSignature = await upload({ ...fields, 'x-amz-signature': '0'.repeat(64) }, files.png, 'a.png', 'image/png');
    expect(badSignature.statusCode).toBe(403);
    const otherType = await upload({ ...fields, 'Content-Type': 'application/pdf' }, files.pdf, 'a.pdf', 'application/pdf');
    expect(otherType.statusCode).toBe(403);
  });

  it('refuses an upload with two files and stores neither', async () => {
    const cookie = await signedInCookie(t);
    const post = await presign(cookie, 'additional_info_doc', 'image/png');
    const before = await storedFiles();
    const form = new FormData();
    for (const [key, value] of Object.entries(post.fields)) form.append(key, value);
    form.append('file', new Blob([new Uint8Array(files.png)], { type: 'image/png' }), 'one.png');
    form.append('file', new Blob([new Uint8Array(files.png)], { type: 'image/png' }), 'two.png');
    const response = await t.app.inject({ method: 'POST', url: '/upload', payload: form });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Send one file per upload.' });
    expect(await storedFiles()).toEqual(before);
  });

  it('refuses a DOCX that unpacks to far more than it weighs, before unpacking it, with a message to act on', async () => {
    const cookie = await signedInCookie(t);
    const bomb = await makeDocx('The same paragraph again.', 100_000);
    expect(bomb.length).toBeLessThan(MAX_FILE_BYTES);
    const started = Date.now();
    const { status } = await uploadAndConvert(cookie, 'additional_info_doc', bomb, 'long.docx', DOCX);
    expect(status).toEqual({ status: 'failed', message: conversionMessages.tooComplex });
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 60_000);

  it('stops a browser job that outlives its limit', async () => {
    const config = loadConfig({}, dataDir);
    await expect(withBrowserPage(config.chromiumPath, (page) => page.waitForTimeout(30_000), { timeoutMs: 1_000 })).rejects.toMatchObject({ limit: 'time' });
  }, 60_000);

  it('kills a browser job whose processes hold more memory than its limit', async () => {
    const config = loadConfig({}, dataDir);
    // Chromium alone holds far more than 20 MB: the watch stops it as soon as it looks.
    const job = withBrowserPage(config.chromiumPath, (page) => page.waitForTimeout(30_000), { memoryLimitMb: 20 });
    await expect(job).rejects.toBeInstanceOf(BrowserLimitError);
    await expect(job).rejects.toMatchObject({ limit: 'memory' });
    // A job within its limits still prints.
    const pdf = await withBrowserPage(config.chromiumPath, async (page) => {
      await page.setContent('<p>fine</p>');
      return page.pdf();
    });
    expect(Buffer.from(pdf).subarray(0, 5).toString()).toBe('%PDF-');
  }, 60_000);

  it("runs again, on a new browser, a job whose shared browser another job's limit stopped", async () => {
    const config = loadConfig({}, dataDir);
    let started = 0;
    const bystander = withBrowserPage(config.chromiumPath, async (page) => {
      started++;
      // The first run is still at work when the other job's limit kills the browser they share
      // (it waits for nothing else: on a busy machine a fixed wait could end before the kill).
      if (started === 1) await page.waitForTimeout(80_000);
      return page.evaluate(() => 6 * 7);
    });
    // The other job starts once the bystander is at work in the browser they share.
    await expect.poll(() => started, { timeout: 30_000 }).toBe(1);
    const overTime = withBrowserPage(config.chromiumPath, (page) => page.waitForTimeout(60_000), { timeoutMs: 3_000 });
    await expect(overTime).rejects.toMatchObject({ limit: 'time' });
    expect(await bystander).toBe(42);
    expect(started).toBe(2);
  }, 90_000);

  it('gives each job a fresh context opened ahead, before the job was asked for, holding nothing of the job before', async () => {
    const config = loadConfig({}, dataDir);
    const job = () =>
      withBrowserPage(config.chromiumPath, async (page) => {
        const cookies = await page.context().cookies();
        // When this page's empty document was made: ahead of the job, or for it.
        const opened = await page.evaluate(() => performance.timeOrigin);
        await page.context().addCookies([{ name: 'left', value: 'behind', url: 'https://example.com' }]);
        return { cookies, opened };
      });
    await job();
    // The next job's context is opened once this one has ended.
    expect(await openedAhead(config.chromiumPath)).toBe(1);
    const askedFor = Date.now();
    const second = await job();
    expect(second.cookies).toEqual([]);
    expect(second.opened).toBeLessThan(askedFor);
  }, 60_000);

  it('reads an upload in a worker thread: a long DOCX does not hold up the event loop', async () => {
    const long = await makeDocx('The same paragraph again, and again.', 15_000);
    // The same reading on this thread, for scale: the longest stall of the event loop it causes.
    const onThisThread = await longestStallDuring(() => prepareUpload(long, DOCX));
    // The reading alone: the printing after it is the browser's work (and its messages, which
    // under a busy machine stalled this thread on their own and made this comparison fail).
    const inWorker = await longestStallDuring(() => prepareInWorker(long, DOCX));
    expect(inWorker).toBeLessThan(onThisThread / 2);
    // And the whole conversion still reads and prints it.
    expect(Buffer.from(await convertToPdf(long, DOCX, loadConfig({}, dataDir).chromiumPath)).subarray(0, 5).toString()).toBe('%PDF-');
  }, 120_000);

  it('refuses as too complex a conversion over its heap or time limit, and the next one still works', async () => {
    const long = await makeDocx('The same paragraph again.', 15_000);
    const chromiumPath = loadConfig({}, dataDir).chromiumPath;
    await expect(convertToPdf(long, DOCX, chromiumPath, { heapMb: 8, timeMs: 60_000 })).rejects.toThrow(conversionMessages.tooComplex);
    await expect(convertToPdf(long, DOCX, chromiumPath, { heapMb: 512, timeMs: 1 })).rejects.toThrow(conversionMessages.tooComplex);
    expect(Buffer.from(await convertToPdf(files.png, 'image/png', chromiumPath)).subarray(0, 5).toString()).toBe('%PDF-');
  }, 120_000);

  it('refuses a polyglot: an image that is also a web page, a PDF with an archive inside, data past a PNG', async () => {
    const page = Buffer.from('<html><body><script>fetch("/api/profile")</script></body></html>');
    const jpegWithPage = Buffer.concat([files.jpeg.subarray(0, 2), Buffer.from([0xff, 0xfe, 0x00, page.length + 2]), page, files.jpeg.subarray(2)]);
    const zipEntry = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]);
    for (const [bytes, type] of [
      [Buffer.concat([files.png, page]), 'image/png'],
      [Buffer.concat([files.png, Buffer.from('trailing')]), 'image/png'],
      [jpegWithPage, 'image/jpeg'],
      [Buffer.concat([files.pdf, zipEntry, Buffer.alloc(64)]), 'application/pdf'],
      [Buffer.concat([Buffer.from('%PDF-1.7\n'), files.docx]), DOCX],
    ] as const) {
      await expect(prepareUpload(bytes, type), type).rejects.toThrow(type === DOCX ? fileMessages.wrongType : conversionMessages.polyglot);
    }
    // The plain files pass.
    for (const [bytes, type] of [[files.png, 'image/png'], [files.jpeg, 'image/jpeg'], [files.pdf, 'application/pdf'], [files.docx, DOCX]] as const) {
      await expect(prepareUpload(bytes, type), type).resolves.toBeDefined();
    }
  });

  it('refuses before printing a DOCX longer than a few hundred pages', async () => {
    const short = await makeDocx('A line.', 25_000);
    expect(short.length).toBeLessThan(MAX_FILE_BYTES);
    await expect(prepareUpload(short, DOCX)).rejects.toThrow(conversionMessages.tooComplex);
  });

  it("keeps a PDF's pages and web links but not its scripts, launch actions or attachments", async () => {
    const doc = await PDFDocument.load(files.pdf);
    const { context } = doc;
    const script = context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert(1)') });
    doc.catalog.set(PDFName.of('OpenAction'), context.register(script));
    doc.catalog.set(PDFName.of('Names'), context.obj({ JavaScript: context.obj({ Names: [PDFString.of('x'), context.register(script)] }) }));
    const link = (action: Record<string, unknown>) => context.register(context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 0, 10, 10], A: context.obj(action as never) }));
    doc.getPage(0).node.set(
      PDFName.of('Annots'),
      context.obj([
        link({ S: 'JavaScript', JS: PDFString.of('app.launchURL("https://evil.example")') }),
        link({ S: 'Launch', F: PDFString.of('calc.exe') }),
        link({ S: 'URI', URI: PDFString.of('javascript:alert(1)') }),
        link({ S: 'URI', URI: PDFString.of('https://portfolio.example') }),
      ]),
    );
    const cookie = await signedInCookie(t);
    const { status } = await uploadAndConvert(cookie, 'additional_info_doc', Buffer.from(await doc.save()), 'active.pdf', 'application/pdf');
    expect(status).toEqual({ status: 'completed' });

    const [row] = await t.database.db.select().from(documents).where(eq(documents.fileName, 'active.pdf'));
    const stored = await readFile(path.join(dataDir, 'files', row!.pdfKey!));
    const kept = await PDFDocument.load(stored!);
    expect(kept.getPageCount()).toBe(1);
    expect(kept.catalog.get(PDFName.of('OpenAction'))).toBeUndefined();
    expect(kept.catalog.lookup(PDFName.of('Names'), PDFDict).get(PDFName.of('JavaScript'))).toBeUndefined();
    const actions = kept
      .getPage(0)
      .node.lookup(PDFName.of('Annots'), PDFArray)
      .asArray()
      .map((ref) => kept.context.lookup(ref, PDFDict).lookup(PDFName.of('A')));
    const kinds = actions.map((action) => (action instanceof PDFDict ? action.lookup(PDFName.of('URI'), PDFString).decodeText() : null));
    expect(kinds).toEqual([null, null, null, 'https://portfolio.example']);
  });

  it('makes the PDF copy with a PDF whose blank page has no /Contents, stored before or after the fix; a document that cannot be added is named (issue 29, item 2)', async () => {
    // pdf-lib and some scanners write a blank page without /Contents; embedding it used to fail.
    const blank = await PDFDocument.create();
    blank.addPage([612, 792]);
    blank.addPage([612, 792]).drawText('second page');
    const bytes = Buffer.from(await blank.save());
    expect((await PDFDocument.load(bytes)).getPage(0).node.Contents()).toBeUndefined();

    const copyOf = async (cookie: string) => {
      for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
        const body = (await t.app.inject({ method: 'GET', url: '/api/pdf', headers: { cookie } })).json() as { status: string; message?: string };
        if (body.status === 'COMPLETED' || body.status === 'FAILED') return body;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error('the copy never finished');
    };
    const submit = async (cookie: string) => {
      await t.app.inject({ method: 'PUT', url: '/api/tabs', headers: { cookie }, payload: { tab_id: 'additional_info_tabs', chosen_tab: 'upload' } });
      expect((await t.app.inject({ method: 'PUT', url: '/api/answer', headers: { cookie }, payload: completeApplication })).statusCode).toBe(200);
      const submitted = await t.app.inject({ method: 'POST', url: '/api/submit', headers: { cookie } });
      expect(submitted.statusCode, submitted.body).toBe(200);
      return copyOf(cookie);
    };

    // Uploaded now: normalised at upload, and the copy is made.
    const now = await signedInCookie(t);
    expect((await uploadAndConvert(now, 'additional_info_doc', bytes, 'scan.pdf', 'application/pdf')).status).toEqual({ status: 'completed' });
    expect(await submit(now)).toEqual({ status: 'COMPLETED', url: '/api/pdf/download' });

    // Stored as it came, before uploads were normalised: the copy mends it as it embeds it.
    const before = await signedInCookie(t);
    await uploadAndConvert(before, 'additional_info_doc', bytes, 'old-scan.pdf', 'application/pdf');
    const [row] = await t.database.db.select().from(documents).where(eq(documents.fileName, 'old-scan.pdf'));
    await writeFile(path.join(dataDir, 'files', row!.pdfKey!), bytes);
    expect(await submit(before)).toEqual({ status: 'COMPLETED', url: '/api/pdf/download' });

    // A stored document that cannot be read any more: the copy fails, naming it and its question.
    const broken = await signedInCookie(t);
    await uploadAndConvert(broken, 'additional_info_doc', bytes, 'damaged.pdf', 'application/pdf');
    const [damaged] = await t.database.db.select().from(documents).where(eq(documents.fileName, 'damaged.pdf'));
    await writeFile(path.join(dataDir, 'files', damaged!.pdfKey!), Buffer.from('not a pdf'));
    expect(await submit(broken)).toEqual({
      status: 'FAILED',
      url: null,
      message: 'We could not make the PDF copy of your application: the document damaged.pdf (Additional Information) could not be added. Please delete it and upload it again, then ask for the copy again.',
    });
  }, 300_000);

  it('refuses an expired policy', async () => {
    // The same secret the test app read from its DATA_DIR.
    const secret = loadConfig({ DATA_DIR: dataDir }).sessionSecret;
    const signedTwoMinutesAgo = new Date(Date.now() - 120_000);
    const fields = signLocalPolicy({ key: 'uploads/u/additional_info_doc/x', owner: 'u', contentType: 'image/png', maxBytes: 1_000_000, expiresInSeconds: 60 }, secret, signedTwoMinutesAgo);
    const response = await upload(fields, files.png, 'a.png', 'image/png');
    expect([response.statusCode, response.json().message]).toEqual([403, 'The upload link has expired. Please try uploading your file again.']);
  });

  it('fails a damaged PDF with a message the applicant can act on, and deleting clears it', async () => {
    const cookie = await signedInCookie(t);
    const damaged = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200, 120)]);
    const { status } = await uploadAndConvert(cookie, 'additional_info_doc', damaged, 'broken.pdf', 'application/pdf');
    expect(status).toEqual({ status: 'failed', message: conversionMessages.unreadable });
    const deleted = await t.app.inject({ method: 'DELETE', url: '/api/pdf/document-answer/additional_info_doc', headers: { cookie } });
    expect(deleted.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/pdf/document-answer/additional_info_doc', headers: { cookie } });
    expect(after.json()).toEqual({ status: 'not_answered' });
  }, 30_000);

  it('deleting removes the stored original and the converted PDF, and the ANSWERED mark', async () => {
    const cookie = await signedInCookie(t);
    const { key } = await uploadAndConvert(cookie, 'additional_info_doc', files.pdf, 'keep.pdf', 'application/pdf');
    const userFolder = key.split('/')[1]!;
    expect((await storedFiles()).filter((f) => f.includes(userFolder))).toHaveLength(2);
    const deleted = await t.app.inject({ method: 'DELETE', url: '/api/document-answer/additional_info_doc', headers: { cookie } });
    expect(deleted.json()).toEqual({ message: documentMessages.deleted });
    expect((await storedFiles()).filter((f) => f.includes(userFolder))).toEqual([]);
    const profile = (await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).json();
    expect(profile.answer.additional_info_doc).toBeUndefined();
    expect(profile.document_answer).toEqual({});
    const again = await t.app.inject({ method: 'DELETE', url: '/api/document-answer/additional_info_doc', headers: { cookie } });
    expect(again.statusCode).toBe(404);
  }, 30_000);

  it('answers 404 for a question that takes no document', async () => {
    const cookie = await signedInCookie(t);
    const response = await t.app.inject({ method: 'POST', url: '/api/presigned-url', headers: { cookie }, payload: { answer_key: 'first_name', content_type: 'image/png' } });
    expect([response.statusCode, response.json().message]).toEqual([404, documentMessages.unknownField]);
  });
});

describe('one account cannot reach another account’s documents or PDF copy', () => {
  it('403 for converting someone else’s upload; 404 for reading, deleting or downloading theirs', async () => {
    const owner = await signedInCookie(t);
    const { key } = await uploadAndConvert(owner, 'additional_info_doc', files.pdf, 'mine.pdf', 'application/pdf');
    const intruder = await signedInCookie(t);
    const steal = await t.app.inject({ method: 'POST', url: '/api/pdf/document-answer/additional_info_doc', headers: { cookie: intruder }, payload: { file_key: key, file_name: 'mine.pdf' } });
    expect([steal.statusCode, steal.json().message]).toEqual([403, documentMessages.notYours]);
    const traversal = await t.app.inject({
      method: 'POST',
      url: '/api/pdf/document-answer/additional_info_doc',
      headers: { cookie: intruder },
      payload: { file_key: `uploads/x/additional_info_doc/../../${key}`, file_name: 'mine.pdf' },
    });
    expect(traversal.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/document-answer', headers: { cookie: intruder } })).json()).toEqual({});
    expect((await t.app.inject({ method: 'DELETE', url: '/api/document-answer/additional_info_doc', headers: { cookie: intruder } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/pdf/download', headers: { cookie: intruder } })).statusCode).toBe(404);
    // The owner's file is untouched.
    expect((await t.app.inject({ method: 'GET', url: '/api/document-answer', headers: { cookie: owner } })).json()).toHaveProperty('additional_info_doc');
    // Without a session nothing is reachable.
    expect((await t.app.inject({ method: 'GET', url: '/api/pdf/download' })).statusCode).toBe(401);
  }, 30_000);
});

describe('service tokens and the print view’s data', () => {
  it('gives the number, answers, add_another, document_answer and tabs for a valid token; 401 for a wrong or expired one', async () => {
    const cookie = await signedInCookie(t, 'print-view@example.com');
    await t.app.inject({ method: 'PUT', url: '/api/answer', headers: { cookie }, payload: { first_name: 'Jordan' } });
    await t.app.inject({ method: 'PUT', url: '/api/tabs', headers: { cookie }, payload: { tab_id: 'additional_info_tabs', chosen_tab: 'write' } });
    const profile = (await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).json();
    expect(profile.username).toBe('print-view@example.com');
    const userId = (await t.database.db.query.users.findFirst({ where: (u, { eq }) => eq(u.username, 'print-view@example.com') }))!.id;
    const token = await createServiceToken(t.database.db, userId);
    const view = await t.app.inject({ method: 'GET', url: `/service/tmp-pdf?service_token=${token}` });
    expect(view.statusCode).toBe(200);
    expect(view.json()).toEqual({
      username: 'print-view@example.com',
      application_number: expect.any(Number),
      submitted_at: null,
      answer: { first_name: 'Jordan' },
      add_another: {},
      document_answer: {},
      tabs: { additional_info_tabs: 'write' },
    });
    const wrong = await t.app.inject({ method: 'GET', url: `/service/tmp-pdf?service_token=${token.slice(0, -4)}AAAA` });
    expect([wrong.statusCode, wrong.json().message]).toEqual([401, serviceMessages.invalidToken]);
    const expired = await createServiceToken(t.database.db, userId, -1);
    expect((await t.app.inject({ method: 'GET', url: `/service/tmp-pdf?service_token=${expired}` })).statusCode).toBe(401);
    // A service token is not a session: the applicant's calls stay closed to it.
    expect((await t.app.inject({ method: 'GET', url: `/api/profile?service_token=${token}` })).statusCode).toBe(401);
  });

  it('stores only the hash of a token', async () => {
    const cookie = await signedInCookie(t, 'hash-only@example.com');
    expect(cookie).toBeTruthy();
    const user = await t.database.db.query.users.findFirst({ where: (u, { eq }) => eq(u.username, 'hash-only@example.com') });
    const token = await createServiceToken(t.database.db, user!.id);
    const rows = await t.database.db.select().from(serviceTokens);
    expect(rows.some((row) => row.tokenHash === token)).toBe(false);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.tokenHash))).toBe(true);
  });
});

describe('PDF status before submitting', () => {
  it('is NOT_ANSWERED with no URL until the application is submitted', async () => {
    const cookie = await signedInCookie(t);
    const response = await t.app.inject({ method: 'GET', url: '/api/pdf', headers: { cookie } });
    expect(response.json()).toEqual({ status: 'NOT_ANSWERED', url: null });
  });
});

describe('a job its process died in', () => {
  it('is queued again once it has not moved for ten minutes; one that moved lately is left alone', async () => {
    const cookie = await signedInCookie(t);
    const { status } = await uploadAndConvert(cookie, 'additional_info_doc', files.png, 'stuck.png', 'image/png');
    expect(status).toEqual({ status: 'completed' });
    // As a kill -9 mid-conversion leaves it: in progress, and nothing working on it.
    const stuckSince = new Date(Date.now() - STUCK_AFTER_MS - 60_000);
    const [stuck] = await t.database.db
      .update(documents)
      .set({ status: 'in_progress', updatedAt: stuckSince })
      .where(eq(documents.fileName, 'stuck.png'))
      .returning({ id: documents.id });
    const queued: string[] = [];
    const jobs = { send: async (_name: string, data: Record<string, string>) => void queued.push(data.documentId!) } as unknown as Jobs;
    expect(await requeueStuckJobs({ db: t.database.db, jobs }, new Date(stuckSince.getTime() + 60_000))).toBe(0);
    expect(queued).toEqual([]);
    expect(await requeueStuckJobs({ db: t.database.db, jobs })).toBe(1);
    expect(queued).toEqual([stuck!.id]);
    // Queued once: the next round finds it moved.
    expect(await requeueStuckJobs({ db: t.database.db, jobs })).toBe(0);
  }, 60_000);

  it('a recommender’s letter whose conversion was killed is queued again after ten minutes, without waiting for a restart (issue 49, item 12)', async () => {
    await signedInCookie(t, 'letter-stuck@example.com');
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'letter-stuck@example.com'));
    const stuckSince = new Date(Date.now() - STUCK_AFTER_MS - 60_000);
    const [letter] = await t.database.db
      .insert(materials)
      .values({ userId: user!.id, itemKey: 'counselor_recommendation', fileKey: `materials/${user!.id}/counselor_recommendation/r-x-letter`, fileName: 'letter.pdf', status: 'in_progress', byEmail: 'counselor@school.example', createdAt: stuckSince, updatedAt: stuckSince, source: 'recommender' })
      .returning({ id: materials.id });
    const queued: [string, string][] = [];
    const jobs = { send: async (name: string, data: Record<string, string>) => void queued.push([name, data.materialId ?? data.documentId ?? '']) } as unknown as Jobs;
    expect(await requeueStuckJobs({ db: t.database.db, jobs })).toBe(1);
    expect(queued).toEqual([['convert-material', letter!.id]]);
    expect(await requeueStuckJobs({ db: t.database.db, jobs })).toBe(0);
  });
});
