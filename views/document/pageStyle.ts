/**
 * The printed page of the application document: US Letter, its margins, the header every page
 * carries and "Page N of M", as CSS page-margin boxes. One rule for the browser's print (the
 * print view, the console) and the PDF printer (Chromium), so both number pages the same way.
 */

/** The page, in inches. The PDF printer places attached documents by these same numbers. */
export const PAGE = { widthIn: 8.5, heightIn: 11, topIn: 0.75, bottomIn: 0.65, sideIn: 0.6 } as const;

/**
 * An attached document's sheet: one whole page's content box less a sliver (so it never spills
 * onto a second page), the caption a fixed band at its top, the document's page in the rest.
 */
export const SHEET = { heightIn: PAGE.heightIn - PAGE.topIn - PAGE.bottomIn - 0.05, captionIn: 0.4 } as const;

/**
 * A CSS string holding any text: every character but letters, digits and spaces written as a hex
 * escape, so no quote, backslash or `</style>` in a name can end the string or the element.
 */
export function cssString(text: string): string {
  let out = '"';
  for (const char of text) {
    out += /^[A-Za-z0-9 ]$/.test(char) ? char : `\\${char.codePointAt(0)!.toString(16)} `;
  }
  return `${out}"`;
}

const MARGIN_TEXT = 'font: 8pt system-ui, sans-serif; color: #333;';

/** The @page rule: size, margins, the header text top left, the page number bottom right. */
export function pageStyle(headerText: string): string {
  const { topIn, bottomIn, sideIn } = PAGE;
  return [
    `@page { size: letter; margin: ${topIn}in ${sideIn}in ${bottomIn}in;`,
    ` @top-left { content: ${cssString(headerText)}; ${MARGIN_TEXT} vertical-align: bottom; padding-bottom: 0.12in; }`,
    ` @bottom-right { content: "Page " counter(page) " of " counter(pages); ${MARGIN_TEXT} vertical-align: top; padding-top: 0.12in; } }`,
  ].join('');
}
