import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { MAX_FILE_BYTES } from '../../domain/config';
import { fileMessages } from '../../domain/messages';
import { contentTypeOfName } from '../../domain/rules/files';
import { randomToken } from '../infra/crypto';
import type { Storage } from '../infra/storage';
import { BrowserLimitError, printOptions, withBrowserPage } from '../infra/browser';
import { ConversionError, conversionMessages, type Prepared } from './prepare';

export { conversionMessages, realContentType } from './prepare';

/**
 * Limits of the worker thread that reads an upload (`prepare.ts`): a document that needs more
 * heap or time than this is refused as too complex, and the web process is unaffected.
 */
const PREPARE_LIMITS = { heapMb: 512, timeMs: 30_000 };

/** What `prepareWorker.ts` posts back. */
type WorkerAnswer = { ok: Prepared } | { refused: string } | { failed: string };

/** Runs `prepareUpload` in a fresh worker thread with a heap and a time limit; terminates it past either. */
export function prepareInWorker(bytes: Uint8Array, contentType: string, limits = PREPARE_LIMITS): Promise<Prepared> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./prepareWorker.mjs', import.meta.url), {
      workerData: { bytes, contentType },
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 32 },
      stdout: false,
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new ConversionError(conversionMessages.tooComplex));
    }, limits.timeMs);
    const settle = (done: () => void) => {
      clearTimeout(timer);
      done();
      void worker.terminate();
    };
    worker.once('message', (answer: WorkerAnswer) =>
      settle(() => {
        if ('ok' in answer) resolve(answer.ok);
        else if ('refused' in answer) reject(new ConversionError(answer.refused));
        else reject(new Error(answer.failed));
      }),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ConversionError(conversionMessages.tooComplex) : error)),
    );
    worker.once('exit', (code) => settle(() => reject(new Error(`conversion worker exited with ${code}`))));
  });
}

/** A DOCX's HTML printed to PDF by a browser that runs no script and fetches nothing. */
async function printHtml(html: string, chromiumPath: string): Promise<Uint8Array> {
  const page = `<!doctype html><html><head><meta charset="utf-8"><style>
    body { font: 11pt/1.45 Georgia, 'DejaVu Serif', serif; color: #000; }
    img { max-width: 100%; } table { border-collapse: collapse; } td, th { border: 1px solid #999; padding: 2pt 4pt; }
  </style></head><body>${html}</body></html>`;
  // The document's HTML is the applicant's: no scripts run and nothing is fetched from anywhere
  // (mammoth inlines images as data: URLs).
  try {
    return await withBrowserPage(
      chromiumPath,
      async (browserPage) => {
        await browserPage.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
        await browserPage.setContent(page, { waitUntil: 'load' });
        return browserPage.pdf(printOptions);
      },
      { javaScriptEnabled: false },
    );
  } catch (error) {
    if (error instanceof BrowserLimitError) throw new ConversionError(conversionMessages.tooComplex);
    throw error;
  }
}

/** The file as PDF: images become a page each, a PDF is checked and kept, DOCX is printed. */
export async function convertToPdf(bytes: Uint8Array, contentType: string, chromiumPath: string, limits = PREPARE_LIMITS): Promise<Uint8Array> {
  const prepared = await prepareInWorker(bytes, contentType, limits);
  return 'pdf' in prepared ? prepared.pdf : printHtml(prepared.html, chromiumPath);
}

/**
 * Reads an upload, checks it as every file is checked (size, real type, what it holds), converts
 * it and stores the PDF under `pdfPrefix`; throws a ConversionError whose message the uploader sees.
 */
export async function convertUpload(
  deps: { storage: Storage; chromiumPath: string },
  file: { fileKey: string; fileName: string },
  pdfPrefix: string,
): Promise<{ pdfKey: string; size: number }> {
  const bytes = await deps.storage.get(file.fileKey);
  if (!bytes) throw new ConversionError(conversionMessages.missing);
  if (bytes.length === 0) throw new ConversionError(fileMessages.empty);
  if (bytes.length > MAX_FILE_BYTES) throw new ConversionError(fileMessages.tooLarge);
  const contentType = contentTypeOfName(file.fileName);
  if (!contentType) throw new ConversionError(fileMessages.wrongType);
  const pdf = await convertToPdf(bytes, contentType, deps.chromiumPath);
  const pdfKey = `${pdfPrefix}${randomToken(12)}.pdf`;
  await deps.storage.put(pdfKey, pdf, 'application/pdf');
  return { pdfKey, size: bytes.length };
}

/** The message a failed conversion leaves for the uploader; an unexpected failure is logged too. */
export function conversionFailure(error: unknown, log: Pick<FastifyBaseLogger, 'error'>): string {
  if (error instanceof ConversionError) return error.message;
  log.error(error, 'document conversion failed');
  return conversionMessages.failed;
}
