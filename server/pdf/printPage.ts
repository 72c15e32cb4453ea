import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { PrintDocument, printTitle, type ServiceView } from '../../src/features/print/document/PrintDocument';
import { partnerConfig } from '../../domain/config';

/**
 * The client's global styles and the print view's own, read once: the printed copy looks exactly
 * as the print view does in a browser (the e2e suite reads both).
 */
const printStyles = ['../../src/ui/styles.css', '../../src/features/print/document/print.css']
  .map((path) => readFileSync(new URL(path, import.meta.url), 'utf8'))
  .join('\n');

/**
 * The print view of one application as a whole HTML page, rendered on the server from the same
 * React component the browser shows: the PDF renderer loads it with no script and no requests
 * (nothing to boot, nothing to wait for). React escapes every answer.
 */
export function printPageHtml(view: ServiceView): string {
  const title = `${printTitle(view)} | ${partnerConfig.applicationTitle}`;
  const body = renderToStaticMarkup(createElement(PrintDocument, { view }));
  const escapedTitle = renderToStaticMarkup(createElement('title', null, title));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${escapedTitle}<style>${printStyles}</style></head><body>${body}</body></html>`;
}
