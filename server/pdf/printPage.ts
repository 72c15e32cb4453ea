import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ApplicationDocument, documentTitle, printedPageStyle, type AttachmentSheets, type ServiceView } from '../../views/document/ApplicationDocument';
import { partnerConfig } from '../../domain/config';

/** The document's own styles, read once: the printed copy looks exactly as the print view does in a browser. */
const documentStyles = readFileSync(new URL('../../views/document/document.css', import.meta.url), 'utf8');

/**
 * The application document as a whole HTML page, rendered on the server from the same React
 * component the browser shows: the PDF renderer loads it with no script and no requests (nothing
 * to boot, nothing to wait for). React escapes every answer.
 */
export function printPageHtml(view: ServiceView, attachments: readonly AttachmentSheets[] = []): string {
  const title = `${documentTitle(view)} | ${partnerConfig.applicationTitle}`;
  const body = renderToStaticMarkup(createElement(ApplicationDocument, { view, attachments }));
  const escapedTitle = renderToStaticMarkup(createElement('title', null, title));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${escapedTitle}<style>${documentStyles}${printedPageStyle(view)}</style></head><body style="margin:0">${body}</body></html>`;
}
