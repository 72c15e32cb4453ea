import { useEffect, useRef, useState } from 'react';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

/** Pages drawn at most: an attachment is a few pages; a longer one is read from its download. */
const VIEWER_MAX_PAGES = 40;
/** The widest a page is drawn, in CSS pixels (the column's width caps it below that). */
const PAGE_MAX_WIDTH = 800;

type ViewerState = { status: 'loading' } | { status: 'shown'; pages: number; drawn: number } | { status: 'failed'; message: string };

/** What a refused read says: the server's message when it sent one. */
async function failureOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: string };
    if (body.message) return body.message;
  } catch {
    // Not JSON: the generic text below.
  }
  return 'The document could not be shown. Download it instead.';
}

/**
 * A converted document drawn in the page with PDF.js (Mozilla's pdfjs-dist; its worker from our
 * own origin, so the Content-Security-Policy stays `'self'`), a canvas per page. Each page is an
 * image named "Page N of M"; the download beside it is the text a screen reader reads.
 */
export function DocumentViewer({ url, title }: { url: string; title: string }) {
  const pagesRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<ViewerState>({ status: 'loading' });

  // I/O: the bytes and PDF.js, then one canvas per page.
  useEffect(() => {
    let cancelled = false;
    let destroy: (() => Promise<void>) | undefined;
    (async () => {
      const response = await fetch(url, { credentials: 'same-origin' });
      if (!response.ok) throw new Error(await failureOf(response));
      const data = new Uint8Array(await response.arrayBuffer());
      const pdfjs = await import('pdfjs-dist');
      pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
      const pdf = await pdfjs.getDocument({ data, isEvalSupported: false }).promise;
      destroy = () => pdf.destroy();
      const pages = pdf.numPages;
      const drawn = Math.min(pages, VIEWER_MAX_PAGES);
      const holder = pagesRef.current;
      if (cancelled || !holder) return;
      holder.replaceChildren();
      const width = Math.min(PAGE_MAX_WIDTH, holder.clientWidth || PAGE_MAX_WIDTH);
      for (let number = 1; number <= drawn && !cancelled; number++) {
        const page = await pdf.getPage(number);
        const unscaled = page.getViewport({ scale: 1 });
        const viewport = page.getViewport({ scale: (width / unscaled.width) * (window.devicePixelRatio || 1) });
        const canvas = document.createElement('canvas');
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.className = 'staff-viewer__page';
        canvas.setAttribute('role', 'img');
        canvas.setAttribute('aria-label', `${title}, page ${number} of ${pages}`);
        holder.append(canvas);
        await page.render({ canvas, viewport }).promise;
      }
      if (!cancelled) setState({ status: 'shown', pages, drawn });
    })().catch((error: unknown) => {
      if (!cancelled) setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
    });
    return () => {
      cancelled = true;
      void destroy?.();
    };
  }, [url, title]);

  return (
    <div className="staff-viewer" aria-busy={state.status === 'loading'}>
      <div role="status">
        {state.status === 'loading' && `Loading ${title}…`}
        {state.status === 'shown' && (state.drawn < state.pages ? `${title}: the first ${state.drawn} of ${state.pages} pages. Download it to read the rest.` : `${title}: ${state.pages === 1 ? '1 page' : `${state.pages} pages`}.`)}
      </div>
      {state.status === 'failed' && <p role="alert">{state.message}</p>}
      <div ref={pagesRef} className="staff-viewer__pages" />
    </div>
  );
}
