/**
 * The PDF figure of `npm run bench` (issue 14): submit → PDF copy ready, on the real server (its
 * own process with its in-process worker, PostgreSQL when it answers, else the embedded database),
 * against its floor measured in the same run: a warm Chromium printing the same application's
 * print page as static HTML on a page already open. One applicant at a time, after one warm-up
 * each (the first print launches the browser); medians of RUNS. Bounded: a few seconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { completeApplication } from '../domain/catalogue/completeApplication';
import { printPageHtml } from '../server/pdf/printPage';
import { chromium } from 'playwright-core';
import { documentPrintOptions } from '../server/pdf/pdfCopy';
import { chromiumArgs, chromiumExecutablePath } from '../chromium';
import { postgresReason } from '../server/testing/db';
import { account, dropAll, freshPostgres, ServerProcess } from '../server/testing/serverProcess';
import { median, type BenchResult } from './benchServer';

const RUNS = 5;
/** How often the bench asks whether the copy is ready (the completion page asks once a second). */
const POLL_MS = 20;

export async function pdfBench(): Promise<BenchResult[]> {
  const drops: (() => Promise<void>)[] = [];
  const reason = await postgresReason();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-pdf-'));
  const server = new ServerProcess({ DATA_DIR: dataDir, RATE_LIMIT_SCALE: '100', ...(reason ? {} : { DATABASE_URL: await freshPostgres(drops) }) });
  const kind = reason ? 'pglite' : 'postgres';
  try {
    await server.start();
    const copies: number[] = [];
    let html = '';
    for (let run = 0; run <= RUNS; run++) {
      const username = `bench-pdf-${run}@example.com`;
      const cookie = await account(server, username);
      const saved = await server.call('PUT', '/api/answer', cookie, completeApplication);
      if (!saved.ok) throw new Error(`the bench's save answered ${saved.status}`);
      const start = performance.now();
      const submitted = await server.call('POST', '/api/submit', cookie);
      if (!submitted.ok) throw new Error(`the bench's submit answered ${submitted.status}: ${await submitted.text()}`);
      for (let asked = 0; ; asked++) {
        const copy = (await (await server.call('GET', '/api/pdf', cookie)).json()) as { status: string };
        if (copy.status === 'COMPLETED') break;
        if (copy.status === 'FAILED' || asked > 60_000 / POLL_MS) throw new Error(`the PDF copy is ${copy.status}`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      if (run > 0) copies.push(performance.now() - start);
      if (!html) {
        const [profile, addAnother, tabs] = await Promise.all(['/api/profile', '/api/add-another', '/api/tabs'].map(async (url) => (await server.call('GET', url, cookie)).json()));
        html = printPageHtml({ username, application_number: null, submitted_at: null, answer: profile.answer, document_answer: profile.document_answer, add_another: addAnother, tabs });
      }
    }
    // The floor: the same page, already rendered, printed by a warm browser on a page already open.
    const browser = await chromium.launch({ executablePath: chromiumExecutablePath, args: chromiumArgs });
    const prints: number[] = [];
    try {
      const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
      for (let run = 0; run <= RUNS; run++) {
        const start = performance.now();
        await page.setContent(html, { waitUntil: 'load' });
        await page.emulateMedia({ media: 'print' });
        await page.pdf(documentPrintOptions);
        if (run > 0) prints.push(performance.now() - start);
      }
    } finally {
      await browser.close();
    }
    const copy = median(copies);
    const floor = median(prints);
    console.log(`${kind}: submit → PDF copy ready ${copies.map((ms) => ms.toFixed(0)).join(', ')} ms; static print ${prints.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    return [
      {
        name: `${kind}: submit → PDF copy ready, against a warm Chromium printing the same page as static HTML`,
        value: Math.round(copy),
        unit: 'ms',
        floor: Math.round(floor),
        ratio: copy / floor,
        budget: '≤ 5× the static print',
        holds: copy / floor <= 5,
      },
    ];
  } finally {
    await server.stop();
    await dropAll(drops);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('benchPdf.ts')) console.log(await pdfBench());
