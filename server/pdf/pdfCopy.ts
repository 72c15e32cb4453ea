import type { FastifyBaseLogger } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { printOptions, withBrowserPage } from '../infra/browser';
import { randomToken } from '../infra/crypto';
import type { Db } from '../infra/db';
import type { Jobs } from '../infra/jobs';
import { applications, documents, pdfCopies } from '../infra/schema';
import { assertWithinLimits } from '../infra/rateLimit';
import { createServiceToken, revokeServiceToken } from '../service/tokens';
import { documentKeys } from '../../domain/catalogue';
import { signedIn, type Handlers } from '../http/handler';
import type { Storage } from '../documents/storage';

const pdfCopyMessages = {
  failed: 'We could not make the PDF copy of your application. Please try again later.',
  notReady: 'The PDF copy of your application is not ready.',
  notSubmitted: 'A PDF copy is made once your application is submitted.',
} as const;

const PDF_DOWNLOAD_PATH = '/api/pdf/download';
/** The print view marks itself ready with this attribute once its data is on the page. */
const PRINT_READY_SELECTOR = '[data-print-ready="true"]';

export interface PdfCopyDeps {
  db: Db;
  storage: Storage;
  jobs: Jobs;
  chromiumPath: string;
  /** Base URL of the portal as the renderer reaches it (PRINT_URL). */
  printUrl: string;
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

/** The print view rendered by Chromium, then each converted document's pages, in form order. */
async function renderCopy(deps: PdfCopyDeps, userId: string): Promise<Uint8Array> {
  const token = await createServiceToken(deps.db, userId);
  let printed: Uint8Array;
  try {
    printed = await withBrowserPage(deps.chromiumPath, async (page) => {
      await page.goto(`${deps.printUrl}/about?service_token=${encodeURIComponent(token)}`, { waitUntil: 'load', timeout: 30_000 });
      await page.waitForSelector(PRINT_READY_SELECTOR, { timeout: 30_000 });
      await page.emulateMedia({ media: 'print' });
      return page.pdf(printOptions);
    });
  } finally {
    await revokeServiceToken(deps.db, token);
  }
  const copy = await PDFDocument.load(printed);
  const rows = await deps.db
    .select({ answerKey: documents.answerKey, pdfKey: documents.pdfKey })
    .from(documents)
    .where(and(eq(documents.userId, userId), eq(documents.status, 'completed')));
  const order = documentKeys;
  rows.sort((a, b) => order.indexOf(a.answerKey) - order.indexOf(b.answerKey));
  for (const row of rows) {
    const bytes = row.pdfKey ? await deps.storage.get(row.pdfKey) : null;
    if (!bytes) continue;
    const attached = await PDFDocument.load(bytes);
    for (const page of await copy.copyPages(attached, attached.getPageIndices())) copy.addPage(page);
  }
  return copy.save();
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
    await db.update(pdfCopies).set({ status: 'FAILED', message: pdfCopyMessages.failed, updatedAt: new Date() }).where(eq(pdfCopies.userId, userId));
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
      // Ready or on its way: asking again changes nothing.
      if (row && row.status !== 'FAILED') return reply.code(202).send(statusOf(row));
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
