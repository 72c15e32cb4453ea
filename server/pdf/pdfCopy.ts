import type { FastifyBaseLogger } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { PDFDocument, StandardFonts, type PDFEmbeddedPage, type PDFFont } from 'pdf-lib';
import { printOptions, withBrowserPage } from '../infra/browser';
import { randomToken } from '../infra/crypto';
import type { Db } from '../infra/db';
import { STUCK_AFTER_MS, type Jobs } from '../infra/jobs';
import { applications, documents, pdfCopies } from '../infra/schema';
import { assertWithinLimits } from '../infra/rateLimit';
import { serviceViewOf } from '../service/serviceView';
import { printPageHtml } from './printPage';
import { documentKeys, fieldByKey } from '../../domain/catalogue';
import { signedIn, type Handlers } from '../http/handler';
import type { Storage } from '../documents/storage';
import { withContentsOnEveryPage } from '../documents/prepare';

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

/** Queues the PDF copy of a just-submitted application. */
export async function requestPdfCopy(deps: Pick<PdfCopyDeps, 'db' | 'jobs'>, userId: string): Promise<void> {
  await deps.db
    .insert(pdfCopies)
    .values({ userId, status: 'UNPROCESSED' })
    .onConflictDoUpdate({ target: pdfCopies.userId, set: { status: 'UNPROCESSED', message: null, updatedAt: new Date() } });
  await deps.jobs.send('pdf-copy', { userId });
}

/**
 * The print view, rendered to HTML here and printed by Chromium with scripts off (no client to
 * boot, no request back to an app instance), then each converted document's pages under a
 * caption, in form order.
 */
async function renderCopy(deps: PdfCopyDeps, userId: string): Promise<Uint8Array> {
  const [view, rows] = await Promise.all([
    serviceViewOf(deps.db, userId),
    deps.db
      .select({ answerKey: documents.answerKey, pdfKey: documents.pdfKey, fileName: documents.fileName })
      .from(documents)
      .where(and(eq(documents.userId, userId), eq(documents.status, 'completed'))),
  ]);
  if (!view) throw new Error('The account of this PDF copy is gone.');
  const html = printPageHtml(view);
  const printed = await withBrowserPage(
    deps.chromiumPath,
    async (page) => {
      // Nothing to fetch: the page is whole, and every request is refused whatever an answer holds.
      await page.route('**/*', (route) => route.abort());
      await page.setContent(html, { waitUntil: 'load', timeout: 30_000 });
      await page.emulateMedia({ media: 'print' });
      return page.pdf(printOptions);
    },
    { javaScriptEnabled: false },
  );
  const copy = await PDFDocument.load(printed);
  const order = documentKeys;
  rows.sort((a, b) => order.indexOf(a.answerKey) - order.indexOf(b.answerKey));
  const font = await copy.embedFont(StandardFonts.Helvetica);
  for (const row of rows) {
    const bytes = row.pdfKey ? await deps.storage.get(row.pdfKey) : null;
    if (!bytes) continue;
    let sources: PDFEmbeddedPage[];
    try {
      const attached = await PDFDocument.load(bytes);
      withContentsOnEveryPage(attached);
      sources = await copy.embedPdf(attached, attached.getPageIndices());
    } catch (error) {
      // Said to the applicant and to staff: which document to replace, not a copy that fails for good.
      throw new DocumentNotAdded(pdfCopyMessages.documentFailed(row.fileName, questionOf(row.answerKey)), { cause: error });
    }
    sources.forEach((source, index) => {
      const pageNote = sources.length > 1 ? ` (page ${index + 1} of ${sources.length})` : '';
      addCaptionedPage(copy, font, source, `Attachment for ${questionOf(row.answerKey)}: ${row.fileName}${pageNote}`);
    });
  }
  return copy.save();
}

/** A stored document the copy could not take in: its message names it. */
class DocumentNotAdded extends Error {}

/** The question a document answers, as the form names it: a tab group's title, else the field's label. */
function questionOf(answerKey: string): string {
  const field = fieldByKey.get(answerKey);
  if (!field) return answerKey;
  return field.group.tabs ? field.group.title : field.label;
}

const LETTER = { width: 612, height: 792 } as const;
const MARGIN = 36;
const CAPTION_SIZE = 10;

/** Text the standard font can draw: other characters (a name in another script) become '?'. */
const drawable = (text: string) => text.replace(/[^\x20-\x7E\u00A0-\u00FF]/g, '?');

/**
 * One page of an attached document on a Letter page of the copy, under a caption that names the
 * question it answers and the file, so a reader of the copy knows what each attachment is.
 */
function addCaptionedPage(copy: PDFDocument, font: PDFFont, source: PDFEmbeddedPage, caption: string) {
  const page = copy.addPage([LETTER.width, LETTER.height]);
  const top = LETTER.height - MARGIN;
  page.drawText(drawable(caption), { x: MARGIN, y: top - CAPTION_SIZE, size: CAPTION_SIZE, font, maxWidth: LETTER.width - 2 * MARGIN });
  const width = LETTER.width - 2 * MARGIN;
  const height = top - CAPTION_SIZE - 12 - MARGIN;
  const scale = Math.min(width / source.width, height / source.height, 1);
  page.drawPage(source, {
    x: MARGIN + (width - source.width * scale) / 2,
    y: MARGIN + height - source.height * scale,
    xScale: scale,
    yScale: scale,
  });
}

/** The PDF-copy job: UNPROCESSED → IN_PROGRESS → COMPLETED | FAILED. */
export async function makePdfCopy(deps: PdfCopyDeps, userId: string): Promise<void> {
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
  const copyOf = async (userId: string) => (await deps.db.select().from(pdfCopies).where(eq(pdfCopies.userId, userId)))[0];
  const statusOf = (row: Awaited<ReturnType<typeof copyOf>>) =>
    row
      ? { status: row.status, url: row.status === 'COMPLETED' ? PDF_DOWNLOAD_PATH : null, ...(row.message ? { message: row.message } : {}) }
      : { status: 'NOT_ANSWERED' as const, url: null };
  return {
    getPdfCopy: signedIn<'getPdfCopy'>(async (_request, reply, { userId }) => reply.code(200).send(statusOf(await copyOf(userId)))),

    retryPdfCopy: signedIn<'retryPdfCopy'>(async (_request, reply, { userId }) => {
      await assertWithinLimits(deps.db, [[`pdf-retry:${userId}`, { max: 5, windowSeconds: 3600 }]], deps.rateLimitScale);
      const [application] = await deps.db.select({ submittedAt: applications.submittedAt }).from(applications).where(eq(applications.userId, userId));
      if (!application?.submittedAt) return reply.code(409).send({ message: pdfCopyMessages.notSubmitted });
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
      if (!bytes) return reply.code(404).send({ message: pdfCopyMessages.notReady });
      return reply
        .type('application/pdf')
        .header('content-disposition', 'attachment; filename="application.pdf"')
        .header('cache-control', 'private, no-store')
        .code(200)
        .send(bytes);
    }),
  } satisfies Handlers;
}
