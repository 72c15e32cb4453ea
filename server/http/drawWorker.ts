import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The signed-in pages' renderer on a thread of its own (issue 29, item 1): drawing the form is
 * 10–20 ms of synchronous work, and on the request thread every save that came in meanwhile
 * waited for it. Here the request thread only asks the API and sends the page; the other core
 * draws. Plain JavaScript, evaluated (the server's build of src/serverRender.tsx is JavaScript
 * already): the thread needs no TypeScript loader, under `npm start` or the tests alike.
 */
/** The drawing thread's niceness (0 normal, 19 the least): the applicant's saves come first. */
const DRAW_THREAD_NICENESS = 10;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
// On Linux a priority is a thread's own: drawing yields the cores to saves (the request thread and
// the database) and takes what they leave. Elsewhere it may move the whole process: then not at all.
if (process.platform === 'linux') require('node:os').setPriority(${DRAW_THREAD_NICENESS});
import(workerData.moduleUrl).then(async (renderer) => {
  await renderer.prepare();
  parentPort.on('message', ({ id, url, cookies, data }) => {
    try {
      parentPort.postMessage({ id, markup: renderer.renderSignedIn(url, cookies, data) });
    } catch (error) {
      parentPort.postMessage({ id, error: String(error && error.stack || error) });
    }
  });
  parentPort.postMessage({ ready: true });
}).catch((error) => parentPort.postMessage({ failed: String(error && error.message || error) }));
`;

/** A draw that takes longer than this is given up (the page goes as built); the thread is started again. */
const RENDER_TIMEOUT_MS = 5_000;

type Reply = { id: number; markup?: string; error?: string } | { ready: true } | { failed: string };

export interface DrawWorker {
  /** The markup, or null when the draw failed or took too long (the caller sends the built page). */
  render(url: string, cookies: string, data: unknown): Promise<string | null>;
  stop(): Promise<void>;
}

/** Starts the thread on the renderer at `file` and waits until it is ready (its `prepare` has run). */
export async function startDrawWorker(file: string, log: (message: string) => void): Promise<DrawWorker> {
  const moduleUrl = pathToFileURL(file).href;
  const pending = new Map<number, { resolve: (markup: string | null) => void; timer: NodeJS.Timeout; worker: Worker }>();
  let nextId = 0;
  let stopped = false;

  const start = (): Promise<Worker> => {
    const ready = new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { moduleUrl } });
      // The thread never holds the process open: a server closing does not wait for it.
      worker.unref();
      worker.on('message', (reply: Reply) => {
        if ('ready' in reply) return resolve(worker);
        if ('failed' in reply) return reject(new Error(`the page renderer did not load: ${reply.failed}`));
        const waiting = pending.get(reply.id);
        if (!waiting) return;
        pending.delete(reply.id);
        clearTimeout(waiting.timer);
        if (reply.error) log(`drawing a page failed: ${reply.error}`);
        waiting.resolve(reply.markup ?? null);
      });
      worker.on('error', (error) => {
        reject(error);
        log(`the page renderer stopped: ${error.message}`);
      });
      worker.on('exit', () => {
        // Whatever it was drawing goes as built; the next draw starts a new thread.
        for (const [id, waiting] of pending) {
          if (waiting.worker !== worker) continue;
          clearTimeout(waiting.timer);
          waiting.resolve(null);
          pending.delete(id);
        }
        if (current === ready) current = null;
      });
    });
    // Nobody may be waiting for a thread that failed to start: its failure is seen by the next draw.
    ready.catch(() => {});
    return ready;
  };

  let current: Promise<Worker> | null = start();
  await current;

  return {
    async render(url, cookies, data) {
      if (stopped) return null;
      current ??= start();
      const worker = await current.catch(() => null);
      if (!worker) {
        current = null;
        return null;
      }
      const id = nextId++;
      return new Promise<string | null>((resolve) => {
        const timer = setTimeout(() => {
          log(`drawing ${url} took over ${RENDER_TIMEOUT_MS} ms: the page went as built, and the renderer starts again`);
          pending.delete(id);
          resolve(null);
          current = null; // the next draw starts a new thread at once
          void worker.terminate();
        }, RENDER_TIMEOUT_MS);
        timer.unref();
        pending.set(id, { resolve, timer, worker });
        worker.postMessage({ id, url, cookies, data });
      });
    },
    async stop() {
      stopped = true;
      const worker = await current?.catch(() => null);
      await worker?.terminate();
    },
  };
}
