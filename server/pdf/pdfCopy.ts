import type { FastifyBaseLogger } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { PDFDocument, type PDFEmbeddedPage, type PDFPage } from 'pdf-lib';
import { printHtml, printSlots } from '../infra/browser';
import { randomToken } from '../infra/crypto';
import type { Db } from '../infra/db';
import { STUCK_AFTER_MS, type Jobs } from '../infra/jobs';
import { applications, documents, pdfCopies } from '../infra/schema';
import { assertWithinLimits } from '../infra/rateLimit';
import { serviceViewOf } from '../office/applicationView';
import { printPageHtml } from './printPage';
import { attachmentCaption, documentTitle, type ServiceView } from '../../views/document/ApplicationDocument';
import { drawAsFigure, markPaginationArtifacts } from './pdfTags';
import { PAGE, SHEET } from '../../views/document/pageStyle';
import { documentKeys } from '../../domain/catalogue';
import { signedIn, type Handlers } from '../http/handler';
import { sendPdfDownload } from '../http/download';
import { APPLICATION_DOCUMENT_NAME, downloadNameOf, questionOf } from '../office/downloadName';
import type { Storage } from '../infra/storage';
import { withContentsOnEveryPage } from '../files/prepare';
import { HttpError } from '../http/errors';

const pdfCopyMessages = {
  failed: 'We could not make the PDF copy of your application. Please try again later.',
  documentFailed: (fileName: string, question: string) =>
    `We could not make the PDF copy of your application: the document ${fileName.length > 100 ? `${fileName.slice(0, 99)}…` : fileName} (${question}) could not be added. Please delete it and upload it again, then ask for the copy again.`,
  notReady: 'The PDF copy of your application is not ready.',
  notSubmitted: 'A PDF copy is made once your application is submitted.',
} as const;

const PDF_DOWNLOAD_PATH = '/api/pdf/download';

export interface PdfCopyDeps {
  db: Db;
  storage: Storage;
  jobs: Jobs;
  chromiumPath: string;
  log: Pick<FastifyBaseLogger, 'error'>;
}

/** The copies' job handler, as many at once as the browser has print slots; registered by the root. */
export async function registerPdfCopyWorker(jobs: Jobs, deps: PdfCopyDeps): Promise<void> {
  await jobs.work('pdf-copy', (data) => makePdfCopy(deps, data.userId!), { concurrency: printSlots() });
}

/** Queues the PDF copy of a just-submitted application. */
export async function requestPdfCopy(deps: Pick<PdfCopyDeps, 'db' | 'jobs'>, userId: string): Promise<void> {
  await deps.db
    .insert(pdfCopies)
    .values({ userId, status: 'UNPROCESSED' })
    .onConflictDoUpdate({ target: pdfCopies.userId, set: { status: 'UNPROCESSED', message: null, updatedAt: new Date() } });
  await deps.jobs.send('pdf-copy', { userId });
}

/**
 * The PDF printer's settings for the application document: the page size, margins, header and
 * numbers come from the document's own @page rule (views/document/pageStyle.ts); tagged (headings,
 * lists, reading order, language) and with an outline of its headings, so a screen reader reads
 * it and a reader jumps to any section or attached document.
 */
export const documentPrintOptions = { preferCSSPageSize: true, printBackground: true, tagged: true, outline: true } as const;

interface Attached {
  answerKey: string;
  fileName: string;
  pdf: PDFDocument;
}

/** One application's PDF copy, from its stored answers and converted documents. */
async function renderCopy(deps: PdfCopyDeps, userId: string): Promise<Uint8Array> {
  const [view, rows] = await Promise.all([
    serviceViewOf(deps.db, userId),
    deps.db
      .select({ answerKey: documents.answerKey, pdfKey: documents.pdfKey, fileName: documents.fileName })
      .from(documents)
      .where(and(eq(documents.userId, userId), eq(documents.status, 'completed'))),
  ]);
  if (!view) throw new Error('The account of this PDF copy is gone.');
  rows.sort((a, b) => documentKeys.indexOf(a.answerKey) - documentKeys.indexOf(b.answerKey));
  const stored: StoredDocument[] = [];
  for (const row of rows) {
    const bytes = row.pdfKey ? await deps.storage.get(row.pdfKey) : null;
    if (bytes) stored.push({ answerKey: row.answerKey, fileName: row.fileName, bytes });
  }
  return composeCopy(deps.chromiumPath, view, stored);
}

/** A converted document as stored, in form order. */
export interface StoredDocument {
  answerKey: string;
  fileName: string;
  bytes: Uint8Array;
}

/**
 * The application document with every converted document after it. Chromium prints the document
 * (scripts off: no client to boot, no request back to an app instance) with an empty, captioned
 * sheet for each attached page, so the header, "Page N of M", the tags and the outline cover the
 * attachments too; each sheet is then filled with its page here.
 (No database here: tests call it directly.)
 */
export async function composeCopy(chromiumPath: string, view: ServiceView, stored: readonly StoredDocument[]): Promise<Uint8Array> {
  const attached: Attached[] = [];
  for (const { answerKey, fileName, bytes } of stored) {
    try {
      const pdf = await PDFDocument.load(bytes);
      withContentsOnEveryPage(pdf);
      if (pdf.getPageCount() > 0) attached.push({ answerKey, fileName, pdf });
    } catch (error) {
      // Said to the applicant and to staff: which document to replace, not a copy that fails for good.
      throw new DocumentNotAdded(pdfCopyMessages.documentFailed(fileName, questionOf(answerKey)), { cause: error });
    }
  }
  const html = printPageHtml(
    view,
    attached.map(({ answerKey, fileName, pdf }) => ({ question: questionOf(answerKey), fileName, pages: pdf.getPageCount() })),
  );
  // Nothing to fetch: the page is whole, and the print page refuses every request whatever an answer holds.
  const printed = await printHtml(chromiumPath, html, documentPrintOptions);
  const copy = await PDFDocument.load(printed);
  // Before the sheets are filled: the header and page numbers Chromium drew outside the tags.
  markPaginationArtifacts(copy);
  const sheets = attached.reduce((sum, { pdf }) => sum + pdf.getPageCount(), 0);
  const firstSheet = copy.getPageCount() - sheets;
  if (firstSheet < 1) throw new Error(`The printed document has ${copy.getPageCount()} pages for ${sheets} attached pages.`);
  let sheet = firstSheet;
  for (const { answerKey, fileName, pdf } of attached) {
    let sources: PDFEmbeddedPage[];
    try {
      sources = await copy.embedPdf(pdf, pdf.getPageIndices());
    } catch (error) {
      throw new DocumentNotAdded(pdfCopyMessages.documentFailed(fileName, questionOf(answerKey)), { cause: error });
    }
    const sheetsOf = { question: questionOf(answerKey), fileName, pages: sources.length };
    sources.forEach((source, index) => {
      const page = copy.getPage(sheet++);
      drawAsFigure(copy, page, attachmentCaption(sheetsOf, index), () => fillSheet(page, source));
    });
  }
  // Chromium names the document after its <title>; a reader's window shows that name, not the file's.
  copy.setTitle(copy.getTitle() ?? documentTitle(view), { showInWindowTitleBar: true });
  copy.setLanguage('en');
  return copy.save();
}

/** A stored document the copy could not take in: its message names it. */
class DocumentNotAdded extends Error {}

const POINTS_PER_INCH = 72;

/**
 * One page of an attached document drawn in its sheet: the page's content box below the caption
 * band (views/document/pageStyle.ts), scaled down to fit and never up, centred across.
 */
function fillSheet(page: PDFPage, source: PDFEmbeddedPage) {
  const pt = (inches: number) => inches * POINTS_PER_INCH;
  const left = pt(PAGE.sideIn);
  const width = pt(PAGE.widthIn - 2 * PAGE.sideIn);
  const top = pt(PAGE.heightIn - PAGE.topIn - SHEET.captionIn);
  const bottom = pt(PAGE.heightIn - PAGE.topIn - SHEET.heightIn);
  const height = top - bottom;
  const scale = Math.min(width / source.width, height / source.height, 1);
  page.drawPage(source, {
    x: left + (width - source.width * scale) / 2,
    y: top - source.height * scale,
    xScale: scale,
    yScale: scale,
  });
}

/** The PDF-copy job: UNPROCESSED → IN_PROGRESS → COMPLETED | FAILED. */
async function makePdfCopy(deps: PdfCopyDeps, userId: string): Promise<void> {
  const { db, storage } = deps;
  const [row] = await db.update(pdfCopies).set({ status: 'IN_PROGRESS', updatedAt: new Date() }).where(eq(pdfCopies.userId, userId)).returning();
  if (!row) return;
  try {
    const pdf = await renderCopy(deps, userId);
    const pdfKey = `copies/${userId}/${randomToken(12)}.pdf`;
    await storage.put(pdfKey, pdf, 'application/pdf');
    await db.update(pdfCopies).set({ status: 'COMPLETED', pdfKey, message: null, updatedAt: new Date() }).where(eq(pdfCopies.userId, userId));
    if (row.pdfKey) await storage.delete(row.pdfKey);
  } catch (error) {
    deps.log.error(error, 'PDF copy failed');
    const message = error instanceof DocumentNotAdded ? error.message : pdfCopyMessages.failed;
    await db.update(pdfCopies).set({ status: 'FAILED', message, updatedAt: new Date() }).where(eq(pdfCopies.userId, userId));
  }
}

export function pdfCopyHandlers(deps: Pick<PdfCopyDeps, 'db' | 'storage' | 'jobs'> & { rateLimitScale: number }) {
  // Asked once a second by every completion page while its copy is made: prepared once (drizzle
  // builds its text and row mapping once; each call fills in the value).
  const copyQuery = deps.db.select().from(pdfCopies).where(eq(pdfCopies.userId, sql.placeholder('userId'))).prepare('pdf_copy_of');
  const copyOf = async (userId: string) => (await copyQuery.execute({ userId }))[0];
  const statusOf = (row: Awaited<ReturnType<typeof copyOf>>) =>
    row
      ? { status: row.status, url: row.status === 'COMPLETED' ? PDF_DOWNLOAD_PATH : null, ...(row.message ? { message: row.message } : {}) }
      : { status: 'NOT_ANSWERED' as const, url: null };
  return {
    getPdfCopy: signedIn<'getPdfCopy'>(async (_request, reply, { userId }) => reply.code(200).send(statusOf(await copyOf(userId)))),

    retryPdfCopy: signedIn<'retryPdfCopy'>(async (_request, reply, { userId }) => {
      await assertWithinLimits(deps.db, [[`pdf-retry:${userId}`, { max: 5, windowSeconds: 3600 }]], deps.rateLimitScale);
      const [application] = await deps.db.select({ submittedAt: applications.submittedAt }).from(applications).where(eq(applications.userId, userId));
      if (!application?.submittedAt) throw new HttpError(409, pdfCopyMessages.notSubmitted);
      const row = await copyOf(userId);
      // Ready, or on its way and moving: asking again changes nothing. Failed, or stuck (its
      // process died), it is made again.
      const stuck = row && row.status !== 'COMPLETED' && row.updatedAt.getTime() < Date.now() - STUCK_AFTER_MS;
      if (row && row.status !== 'FAILED' && !stuck) return reply.code(202).send(statusOf(row));
      await requestPdfCopy(deps, userId);
      return reply.code(202).send(statusOf(await copyOf(userId)));
    }),

    downloadPdfCopy: signedIn<'downloadPdfCopy'>(async (_request, reply, { userId }) => {
      const row = await copyOf(userId);
      const bytes = row?.status === 'COMPLETED' && row.pdfKey ? await deps.storage.get(row.pdfKey) : null;
      if (!bytes) throw new HttpError(404, pdfCopyMessages.notReady);
      return sendPdfDownload(reply, bytes, await downloadNameOf(deps.db, userId, APPLICATION_DOCUMENT_NAME));
    }),
  } satisfies Handlers;
}
