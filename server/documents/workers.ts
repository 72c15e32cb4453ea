import type { Jobs } from '../infra/jobs';
import { convertDocument, type DocumentDeps } from './documents';
import { makePdfCopy, type PdfCopyDeps } from '../pdf/pdfCopy';

/** The job handlers, run in the web process by default or by `npm run worker`. */
export async function registerWorkers(jobs: Jobs, deps: DocumentDeps & PdfCopyDeps): Promise<void> {
  await jobs.work('convert-document', (data) => convertDocument(deps, data.documentId!));
  await jobs.work('pdf-copy', (data) => makePdfCopy(deps, data.userId!));
}
