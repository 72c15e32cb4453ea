import { decodePDFRawStream, PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFOperator, PDFOperatorNames, PDFRawStream, PDFRef, type PDFDocument, type PDFPage } from 'pdf-lib';

/**
 * What Chromium's tagged print leaves untagged, mended (issue 48): the page header and
 * "Page N of M" (the @page margin boxes) are drawn outside any marked content, so a screen reader
 * may read them amid the answers on every page; they become pagination artifacts. An attached
 * document's page, drawn here into its sheet, becomes a Figure whose alternative text is its caption
 * (its own text stays in the page, found by search and copy).
 */

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([...'()<>[]{}/%'].map((char) => char.charCodeAt(0)));

/**
 * The operators of a content stream, in order, with where each ends: enough of the syntax to step
 * over strings, names, dictionaries and comments. Null for what is not read here (an inline image).
 */
function operatorsOf(content: string): Array<{ name: string; end: number; start: number }> | null {
  const out: Array<{ name: string; end: number; start: number }> = [];
  let i = 0;
  const n = content.length;
  while (i < n) {
    const c = content.charCodeAt(i);
    if (WHITESPACE.has(c)) i++;
    else if (c === 0x25 /* % */) while (i < n && content[i] !== '\n' && content[i] !== '\r') i++;
    else if (c === 0x28 /* ( */) {
      let nesting = 0;
      for (; i < n; i++) {
        if (content[i] === '\\') i++;
        else if (content[i] === '(') nesting++;
        else if (content[i] === ')' && --nesting === 0) break;
      }
      i++;
    } else if (c === 0x3c /* < */ && content[i + 1] !== '<') {
      i = content.indexOf('>', i) + 1;
      if (i === 0) return null;
    } else if (DELIMITERS.has(c)) {
      i += content.startsWith('<<', i) || content.startsWith('>>', i) ? 2 : 1;
      if (c === 0x2f /* / */) while (i < n && !WHITESPACE.has(content.charCodeAt(i)) && !DELIMITERS.has(content.charCodeAt(i))) i++;
    } else {
      const start = i;
      while (i < n && !WHITESPACE.has(content.charCodeAt(i)) && !DELIMITERS.has(content.charCodeAt(i))) i++;
      const word = content.slice(start, i);
      if (word === 'BI') return null;
      if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word) && word !== 'true' && word !== 'false' && word !== 'null') out.push({ name: word, start, end: i });
    }
  }
  return out;
}

const ARTIFACT_START = '\n/Artifact <</Type /Pagination>> BDC\n';
const ARTIFACT_END = '\nEMC\n';

/** The content with each text object drawn outside marked content wrapped as a pagination artifact; null when nothing is. */
export function textOutsideTagsAsArtifacts(content: string): string | null {
  const operators = operatorsOf(content);
  if (!operators) return null;
  let depth = 0;
  let out = '';
  let copied = 0;
  let wrapping = false;
  for (const op of operators) {
    if (op.name === 'BDC' || op.name === 'BMC') depth++;
    else if (op.name === 'EMC') depth--;
    else if (op.name === 'BT' && depth === 0 && !wrapping) {
      out += content.slice(copied, op.start) + ARTIFACT_START;
      copied = op.start;
      wrapping = true;
    } else if (op.name === 'ET' && depth === 0 && wrapping) {
      out += content.slice(copied, op.end) + ARTIFACT_END;
      copied = op.end;
      wrapping = false;
    }
  }
  return copied === 0 ? null : out + content.slice(copied);
}

/** A page's content, its streams decoded and joined (as a reader joins them). */
function contentOf(pdf: PDFDocument, page: PDFPage): string | null {
  const contents = page.node.get(PDFName.of('Contents'));
  const refs = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
  let text = '';
  for (const ref of refs) {
    const stream = ref instanceof PDFRef ? pdf.context.lookup(ref) : ref;
    if (!(stream instanceof PDFRawStream)) return null;
    text += `${Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1')}\n`;
  }
  return text;
}

/** Every page's header and page number, drawn outside the structure, marked as pagination artifacts. */
export function markPaginationArtifacts(pdf: PDFDocument): void {
  for (const page of pdf.getPages()) {
    const content = contentOf(pdf, page);
    const marked = content === null ? null : textOutsideTagsAsArtifacts(content);
    if (marked === null) continue;
    page.node.set(PDFName.of('Contents'), pdf.context.register(pdf.context.flateStream(Buffer.from(marked, 'latin1'))));
  }
}

/** The parent tree's entry of a page: the structure element of each of its marked-content ids. */
function parentTreeEntryOf(pdf: PDFDocument, page: PDFPage): PDFArray | null {
  const root = pdf.catalog.lookupMaybe(PDFName.of('StructTreeRoot'), PDFDict);
  const key = page.node.get(PDFName.of('StructParents'));
  const nums = root?.lookupMaybe(PDFName.of('ParentTree'), PDFDict)?.lookupMaybe(PDFName.of('Nums'), PDFArray);
  if (!nums || !(key instanceof PDFNumber)) return null;
  for (let i = 0; i < nums.size(); i += 2) {
    const at = nums.get(i);
    if (at instanceof PDFNumber && at.asNumber() === key.asNumber()) return nums.lookupMaybe(i + 1, PDFArray) ?? null;
  }
  return null;
}

/**
 * Draws into `page` (by `draw`) as a Figure of the structure tree, with `alt` as its alternative
 * text, after the page's other elements. Untagged (drawn as is) when the page has no structure.
 */
export function drawAsFigure(pdf: PDFDocument, page: PDFPage, alt: string, draw: () => void): void {
  const entry = parentTreeEntryOf(pdf, page);
  const root = pdf.catalog.lookupMaybe(PDFName.of('StructTreeRoot'), PDFDict);
  const topKids = root?.get(PDFName.of('K'));
  // The document element everything hangs from (Chromium's tree has one), or the root itself.
  const parentRef = topKids instanceof PDFRef ? topKids : topKids instanceof PDFArray && topKids.size() === 1 ? (topKids.get(0) as PDFRef) : null;
  const parent = parentRef ? pdf.context.lookupMaybe(parentRef, PDFDict) : undefined;
  if (!entry || !parentRef || !parent) return draw();
  const mcid = entry.size();
  const figure = pdf.context.obj({ Type: 'StructElem', S: 'Figure', P: parentRef, Pg: page.ref, K: mcid });
  figure.set(PDFName.of('Alt'), PDFHexString.fromText(alt));
  const figureRef = pdf.context.register(figure);
  const kids = parent.get(PDFName.of('K'));
  if (kids instanceof PDFArray) kids.push(figureRef);
  else parent.set(PDFName.of('K'), pdf.context.obj(kids ? [kids, figureRef] : [figureRef]));
  entry.push(figureRef);
  page.pushOperators(PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of('Figure'), `<</MCID ${mcid}>>`]));
  draw();
  page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
}
