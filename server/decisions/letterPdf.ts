import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq } from 'drizzle-orm';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { DECISION_NAMES, decisionMessages, decisionState } from '../../domain/decisions';
import { partnerConfig } from '../../domain/config';
import { longDateUtc } from '../../domain/rules/formats';
import { DecisionLetter } from '../../views/letter/DecisionLetter';
import type { Storage } from '../infra/storage';
import { sendPdfDownload } from '../http/download';
import { signedIn, type Handlers } from '../http/handler';
import { printHtml, printOptions } from '../infra/browser';
import { clock } from '../infra/clock';
import { sha256 } from '../infra/crypto';
import type { Db } from '../infra/db';
import type { Jobs } from '../infra/jobs';
import { applications, decisions, letterPdfs } from '../infra/schema';
import { downloadNameOf } from '../office/downloadName';
import { letterFor } from './letters';
import { HttpError } from '../http/errors';

export interface LetterPdfDeps {
  db: Db;
  storage: Storage;
  jobs: Jobs;
  chromiumPath: string;
}

const LETTER_JOB = 'decision-letter';
/** How long the call waits for the worker's print before answering 503 (a print takes about a second). */
const LETTER_WAIT_MS = 20_000;
const LETTER_POLL_MS = 200;

/** What the PDF is made of: the letter's words, its decision and its date; its hash names the print. */
interface PrintedLetter {
  letter: string;
  decision: keyof typeof DECISION_NAMES;
  releasedAt: string;
}
const hashOf = (printed: PrintedLetter) => sha256(JSON.stringify([printed.letter, printed.decision, printed.releasedAt]));

/**
 * The letter of a submitted application's decision once its release time is set; with `now`, only
 * once that time has come (what the applicant may read). The worker reads it without `now`: the
 * call that asked for the print checked the release on its own clock (a test's clock is the
 * request's, not the worker's).
 */
async function letterOf(db: Db, userId: string, now: Date | null): Promise<PrintedLetter | null> {
  const [[application], [row]] = await Promise.all([
    db.select({ submittedAt: applications.submittedAt, answer: applications.answer }).from(applications).where(eq(applications.userId, userId)),
    db.select().from(decisions).where(eq(decisions.userId, userId)),
  ]);
  if (!application?.submittedAt || !row?.releaseAt) return null;
  if (now && decisionState(row.releaseAt, now) !== 'released') return null;
  return { letter: await letterFor(db, row.decision, application.answer), decision: row.decision, releasedAt: row.releaseAt.toISOString() };
}

/** The letter as a page of its own, rendered from the component the status page shows (React escapes every word). */
export function letterPageHtml(printed: PrintedLetter): string {
  const title = renderToStaticMarkup(createElement('title', null, `Decision letter | ${partnerConfig.name}`));
  const body = renderToStaticMarkup(createElement(DecisionLetter, { letter: printed.letter, label: `Decision: ${DECISION_NAMES[printed.decision]}`, className: 'letter' }));
  const heading = renderToStaticMarkup(
    createElement('header', null, createElement('h1', null, partnerConfig.name), createElement('p', null, partnerConfig.address.officeName), createElement('p', null, longDateUtc(new Date(printed.releasedAt)))),
  );
  const style = 'body{margin:0;font:11pt/1.5 "DejaVu Sans",Arial,sans-serif;color:#000}h1{font-size:16pt;margin:0}header{margin-bottom:2em}header p{margin:0}.letter p{margin:0 0 1em;white-space:pre-line}';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${title}<style>${style}</style></head><body>${heading}${body}</body></html>`;
}

/** The worker's part: print the applicant's current letter and keep it, unless a newer one was asked for meanwhile. */
async function printLetterPdf(deps: LetterPdfDeps, userId: string): Promise<void> {
  const printed = await letterOf(deps.db, userId, null);
  if (!printed) return;
  const hash = hashOf(printed);
  try {
    const bytes = await printHtml(deps.chromiumPath, letterPageHtml(printed), { ...printOptions, margin: { top: '1in', bottom: '1in', left: '1in', right: '1in' }, tagged: true });
    const key = `letters/${userId}/${hash}.pdf`;
    await deps.storage.put(key, bytes, 'application/pdf');
    await deps.db.update(letterPdfs).set({ status: 'ready', pdfKey: key, updatedAt: new Date() }).where(and(eq(letterPdfs.userId, userId), eq(letterPdfs.letterHash, hash)));
  } catch (error) {
    await deps.db.update(letterPdfs).set({ status: 'failed', updatedAt: new Date() }).where(and(eq(letterPdfs.userId, userId), eq(letterPdfs.letterHash, hash)));
    throw error;
  }
}

export async function registerLetterWorker(jobs: Jobs, deps: LetterPdfDeps): Promise<void> {
  await jobs.work(LETTER_JOB, (data) => printLetterPdf(deps, data.userId!));
}

export function letterPdfHandlers(deps: Omit<LetterPdfDeps, 'chromiumPath'>) {
  const { db, storage, jobs } = deps;
  return {
    downloadMyDecisionLetter: signedIn<'downloadMyDecisionLetter'>(async (_request, reply, { userId }) => {
      const printed = await letterOf(db, userId, clock.now());
      if (!printed) throw new HttpError(404, decisionMessages.noLetter);
      const hash = hashOf(printed);
      let requested = false;
      // This letter's print asked for: the worker prints it (the app needs no browser of its own).
      const requestPrint = async () => {
        requested = true;
        await db
          .insert(letterPdfs)
          .values({ userId, letterHash: hash, status: 'waiting' })
          .onConflictDoUpdate({ target: letterPdfs.userId, set: { letterHash: hash, status: 'waiting', pdfKey: null, updatedAt: new Date() } });
        await jobs.send(LETTER_JOB, { userId });
      };
      const [kept] = await db.select().from(letterPdfs).where(eq(letterPdfs.userId, userId));
      if (!kept || kept.letterHash !== hash || kept.status === 'failed') await requestPrint();
      for (let waited = 0; ; waited += LETTER_POLL_MS) {
        const [row] = await db.select().from(letterPdfs).where(eq(letterPdfs.userId, userId));
        if (row?.letterHash === hash && row.status === 'ready' && row.pdfKey) {
          const bytes = await storage.get(row.pdfKey);
          if (bytes) return sendPdfDownload(reply, bytes, await downloadNameOf(db, userId, 'Decision Letter'));
          // The kept file is gone (storage restored without it): printed again, once.
          if (requested) break;
          await requestPrint();
        }
        if (row?.letterHash === hash && row.status === 'failed') break;
        if (waited >= LETTER_WAIT_MS) break;
        await sleep(LETTER_POLL_MS);
      }
      reply.header('retry-after', '30');
      return reply.code(503).send({ message: decisionMessages.letterNotReady });
    }),
  } satisfies Handlers;
}
