import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { errorFromResponse } from '../../../lib/api/errors';

/** Pages drawn at most: an attachment is a few pages; a longer one is read from its download. */
const VIEWER_MAX_PAGES = 40;
/** The widest a page is drawn, in CSS pixels (the column's width caps it below that). */
const PAGE_MAX_WIDTH = 800;

/**
 * The document's bytes, read once per page's life: the server records each read as a view, so the
 * read is a query kept (StrictMode's second mount, or closing and opening it again, finds it), and
 * never cancelled and made again.
 */
const documentBytesQuery = (url: string) =>
  queryOptions({
    queryKey: ['staff', 'document', url],
    queryFn: async () => {
      const response = await fetch(url, { credentials: 'same-origin' });
      // A refused read says why as every call does (its JSON message); a non-OK answer is never null here.
      if (!response.ok) throw (await errorFromResponse(response))!;
      return new Uint8Array(await response.arrayBuffer());
    },
    retry: false,
    staleTime: Infinity,
  });

/**
 * A converted document drawn in the page with PDF.js (Mozilla's pdfjs-dist; its worker from our
 * own origin, so the Content-Security-Policy stays `'self'`), a canvas per page. Each page is an
 * image named "Page N of M"; the download beside it is the text a screen reader reads.
 */
export function DocumentViewer({ url, title }: { url: string; title: string }) {
  const pagesRef = useRef<HTMLDivElement>(null);
  const bytes = useQuery(documentBytesQuery(url));
  const [drawn, setDrawn] = useState<{ data: Uint8Array; pages: number; drawn: number } | { data: Uint8Array; failed: string } | null>(null);

  // I/O: PDF.js draws the bytes, one canvas per page (PDF.js takes its own copy: the cached bytes stay whole).
  const data = bytes.data;
  useEffect(() => {
    if (!data) return;
    let cancelled = false;
    let destroy: (() => Promise<void>) | undefined;
    (async () => {
      const pdfjs = await import('pdfjs-dist');
      pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
      const pdf = await pdfjs.getDocument({ data: data.slice(), isEvalSupported: false }).promise;
      destroy = () => pdf.destroy();
      const pages = pdf.numPages;
      const count = Math.min(pages, VIEWER_MAX_PAGES);
      const holder = pagesRef.current;
      if (cancelled || !holder) return;
      holder.replaceChildren();
      const width = Math.min(PAGE_MAX_WIDTH, holder.clientWidth || PAGE_MAX_WIDTH);
      for (let number = 1; number <= count && !cancelled; number++) {
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
      if (!cancelled) setDrawn({ data, pages, drawn: count });
    })().catch((error: unknown) => {
      if (!cancelled) setDrawn({ data, failed: error instanceof Error ? error.message : String(error) });
    });
    return () => {
      cancelled = true;
      void destroy?.();
    };
  }, [data, title]);

  // What was drawn belongs to these bytes: other bytes are still being drawn.
  const shown = drawn && drawn.data === data ? drawn : null;
  const failure = bytes.error?.message ?? (shown && 'failed' in shown ? shown.failed : null);
  return (
    <div className="staff-viewer" aria-busy={!failure && !shown}>
      <div role="status">
        {!failure && !shown && `Loading ${title}…`}
        {shown && 'pages' in shown && (shown.drawn < shown.pages ? `${title}: the first ${shown.drawn} of ${shown.pages} pages. Download it to read the rest.` : `${title}: ${shown.pages === 1 ? '1 page' : `${shown.pages} pages`}.`)}
      </div>
      {failure && <p role="alert">{failure}</p>}
      <div ref={pagesRef} className="staff-viewer__pages" />
    </div>
  );
}
