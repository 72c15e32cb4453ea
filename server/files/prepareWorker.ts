import { parentPort, workerData } from 'node:worker_threads';
import { ConversionError, prepareUpload } from './prepare';

/** Runs in the worker thread convert.ts starts: one upload in, one answer out. */
const { bytes, contentType } = workerData as { bytes: Uint8Array; contentType: string };
try {
  const prepared = await prepareUpload(bytes, contentType);
  parentPort!.postMessage({ ok: prepared });
} catch (error) {
  parentPort!.postMessage(error instanceof ConversionError ? { refused: error.message } : { failed: error instanceof Error ? error.message : String(error) });
}
