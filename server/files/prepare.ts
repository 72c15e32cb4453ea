import { fileTypeFromBuffer } from 'file-type';
import JSZip from 'jszip';
import mammoth from 'mammoth';
import { EncryptedPDFError, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { CONVERSION_FAILED_MESSAGE, fileMessages } from '../../domain/messages';
import { DOCX_TYPE } from '../../domain/rules/files';

/**
 * The CPU- and memory-hungry half of a conversion: reading the upload, checking it and turning it
 * into a PDF (images, PDFs) or into HTML to print (DOCX). It runs in a worker thread with its own
 * heap limit (`convert.ts`), never on the web process's event loop.
 */

export const conversionMessages = {
  unreadable: 'Your file could not be read. It may be damaged; please upload it again or choose another file.',
  encrypted: 'Your PDF is protected by a password. Please upload a copy without a password.',
  failed: CONVERSION_FAILED_MESSAGE,
  missing: 'We could not find your uploaded file. Please upload it again.',
  polyglot: 'This file also holds another kind of file (a web page, an archive or a PDF hidden inside it), so it cannot be used. Please save it again as a plain file and upload that.',
  tooComplex: 'This document is too long or complex to convert. Please upload a shorter file, or save it as a PDF and upload that.',
} as const;

/**
 * A DOCX is a ZIP: 1 MB of it can unpack to hundreds of megabytes (one paragraph repeated a
 * million times). Its sizes are read from the archive's directory before anything unpacks it.
 */
const DOCX_BOUNDS = { entries: 1_000, documentXmlBytes: 2_000_000, totalBytes: 30_000_000, paragraphs: 20_000, pageBreaks: 500 } as const;

async function assertDocxWithinBounds(bytes: Uint8Array): Promise<void> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    throw new ConversionError(conversionMessages.unreadable);
  }
  const entries = Object.values(zip.files);
  if (entries.length > DOCX_BOUNDS.entries) throw new ConversionError(conversionMessages.tooComplex);
  let total = 0;
  for (const entry of entries) {
    // JSZip keeps each entry's declared size from the central directory (not in its typings).
    const size = (entry as unknown as { _data?: { uncompressedSize?: number } })._data?.uncompressedSize ?? (entry.dir ? 0 : undefined);
    if (size === undefined) throw new ConversionError(conversionMessages.unreadable);
    total += size;
    if (entry.name === 'word/document.xml' && size > DOCX_BOUNDS.documentXmlBytes) throw new ConversionError(conversionMessages.tooComplex);
  }
  if (total > DOCX_BOUNDS.totalBytes) throw new ConversionError(conversionMessages.tooComplex);
  // Its length before printing: paragraphs and hard page breaks (a few hundred pages at most).
  const xml = (await zip.file('word/document.xml')?.async('string')) ?? '';
  if (count(xml, /<w:p[\s>]/g) > DOCX_BOUNDS.paragraphs || count(xml, /<w:br\b[^>]*w:type="page"/g) > DOCX_BOUNDS.pageBreaks) {
    throw new ConversionError(conversionMessages.tooComplex);
  }
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/** A conversion failure whose message the applicant sees. */
export class ConversionError extends Error {}

/** The content type the file's bytes show, whatever its name or the browser claimed. */
export async function realContentType(bytes: Uint8Array): Promise<string | null> {
  const detected = await fileTypeFromBuffer(bytes);
  return detected?.mime ?? null;
}

/** Refuses bytes that are not what the name's extension promised (a renamed program, say). */
async function assertRealType(bytes: Uint8Array, expected: string): Promise<void> {
  const actual = await realContentType(bytes);
  if (actual !== expected) throw new ConversionError(fileMessages.wrongType);
  assertOneKindOfFile(bytes, expected);
}

/**
 * Signatures of other kinds of file that have no business inside an upload: a page or script a
 * browser would run, a ZIP (a DOCX or worse) or a PDF. Each is long enough that compressed data
 * holds it by chance about once in a trillion bytes.
 */
const FOREIGN: { pattern: RegExp; allowedIn?: string }[] = [
  { pattern: /<(script|html|svg|iframe|object|embed)[\s>/]|<!doctype html|<\?php/i },
  { pattern: /%PDF-\d\.\d/, allowedIn: 'application/pdf' },
  // eslint-disable-next-line no-control-regex -- a ZIP entry's signature is control bytes
  { pattern: /PK\x03\x04[\x0a\x14\x2d]\x00/, allowedIn: DOCX_TYPE },
];

/**
 * A polyglot is one file that is also another (an image that is also a web page, a PDF with a ZIP
 * appended): refused, so no reader, viewer or browser down the line meets the other reading.
 * Also refuses bytes after a PNG's end and anything before a DOCX's first entry.
 */
function assertOneKindOfFile(bytes: Uint8Array, type: string): void {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const foreign = FOREIGN.some(({ pattern, allowedIn }) => allowedIn !== type && pattern.test(text));
  const afterPngEnd = type === 'image/png' && text.length - (text.lastIndexOf('IEND') + 8) > 0;
  const beforeZip = type === DOCX_TYPE && !text.startsWith('PK\x03\x04');
  if (foreign || afterPngEnd || beforeZip) throw new ConversionError(conversionMessages.polyglot);
}

/** US Letter in PDF points; images are scaled down to fit inside half-inch margins, never up. */
const PAGE = { width: 612, height: 792, margin: 36 };

async function imageToPdf(bytes: Uint8Array, type: 'image/png' | 'image/jpeg'): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  let image;
  try {
    image = type === 'image/png' ? await pdf.embedPng(bytes) : await pdf.embedJpg(bytes);
  } catch {
    throw new ConversionError(conversionMessages.unreadable);
  }
  const page = pdf.addPage([PAGE.width, PAGE.height]);
  const scale = Math.min(1, (PAGE.width - 2 * PAGE.margin) / image.width, (PAGE.height - 2 * PAGE.margin) / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  page.drawImage(image, { x: (PAGE.width - width) / 2, y: PAGE.height - PAGE.margin - height, width, height });
  return pdf.save();
}

/** Actions that run something or reach out when a reader opens or clicks the document. */
const ACTIVE_ACTIONS = new Set(['JavaScript', 'Launch', 'SubmitForm', 'ImportData', 'GoToR', 'GoToE', 'RichMediaExecute', 'Rendition']);
/** Links to the web and to mail stay (a portfolio, a reference's address); other schemes do not. */
const SAFE_LINK = /^(https?:|mailto:)/i;

/** Whether an action dictionary (or a chain of them through /Next) does any of ACTIVE_ACTIONS. */
function isActiveAction(action: unknown, depth = 0): boolean {
  if (!(action instanceof PDFDict) || depth > 10) return false;
  const kind = action.get(PDFName.of('S'));
  if (kind instanceof PDFName && ACTIVE_ACTIONS.has(kind.decodeText())) return true;
  if (kind instanceof PDFName && kind.decodeText() === 'URI') {
    const uri = action.lookup(PDFName.of('URI'));
    const text = uri instanceof PDFString || uri instanceof PDFHexString ? uri.decodeText() : '';
    if (!SAFE_LINK.test(text.trim())) return true;
  }
  const next = action.get(PDFName.of('Next'));
  const nexts = next instanceof PDFArray ? next.asArray() : [next];
  return nexts.some((item) => isActiveAction(action.context.lookup(item as never), depth + 1));
}

/**
 * A PDF goes into the applicant's copy and in front of staff: it keeps its pages and loses what
 * could run or call out — the document's open and page actions, its JavaScript and attached
 * files, form scripts, and link actions that run code, launch, submit, open other files or use a scheme other than
 * http(s) and mailto.
 */
function withoutActiveContent(pdf: PDFDocument): void {
  const { catalog } = pdf;
  catalog.delete(PDFName.of('OpenAction'));
  catalog.delete(PDFName.of('AA'));
  const names = catalog.lookup(PDFName.of('Names'));
  if (names instanceof PDFDict) {
    names.delete(PDFName.of('JavaScript'));
    names.delete(PDFName.of('EmbeddedFiles'));
  }
  const form = catalog.lookup(PDFName.of('AcroForm'));
  if (form instanceof PDFDict) form.delete(PDFName.of('XFA'));
  for (const page of pdf.getPages()) {
    page.node.delete(PDFName.of('AA'));
    const annots = page.node.lookup(PDFName.of('Annots'));
    if (!(annots instanceof PDFArray)) continue;
    for (const ref of annots.asArray()) {
      const annot = pdf.context.lookup(ref);
      if (!(annot instanceof PDFDict)) continue;
      annot.delete(PDFName.of('AA'));
      if (isActiveAction(annot.lookup(PDFName.of('A')))) annot.delete(PDFName.of('A'));
    }
  }
}

/**
 * A page without /Contents (a blank page as pdf-lib and some scanners write it) is valid PDF, but
 * cannot be embedded in the applicant's copy: it gets an empty content stream (issue 29, item 2).
 * Run at upload, and again on each stored document as the copy embeds it (stored before this).
 */
export function withContentsOnEveryPage(pdf: PDFDocument): void {
  for (const page of pdf.getPages()) {
    if (!page.node.Contents()) page.node.set(PDFName.of('Contents'), pdf.context.register(pdf.context.stream('')));
  }
}

async function checkedPdf(bytes: Uint8Array): Promise<Uint8Array> {
  let pdf: PDFDocument;
  try {
    pdf = await PDFDocument.load(bytes);
    if (pdf.getPageCount() === 0) throw new ConversionError(conversionMessages.unreadable);
  } catch (error) {
    if (error instanceof ConversionError) throw error;
    throw new ConversionError(error instanceof EncryptedPDFError ? conversionMessages.encrypted : conversionMessages.unreadable);
  }
  withoutActiveContent(pdf);
  withContentsOnEveryPage(pdf);
  return pdf.save();
}

/** Mammoth's HTML of a DOCX past this is more than a printable document (a few hundred pages). */
const MAX_DOCX_HTML_CHARS = 4_000_000;

async function docxToHtml(bytes: Uint8Array): Promise<string> {
  await assertDocxWithinBounds(bytes);
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) }));
  } catch {
    throw new ConversionError(conversionMessages.unreadable);
  }
  if (html.length > MAX_DOCX_HTML_CHARS) throw new ConversionError(conversionMessages.tooComplex);
  return html;
}

/** What a worker hands back: a finished PDF, or a DOCX's HTML for the browser to print. */
export type Prepared = { pdf: Uint8Array } | { html: string };

/** The file checked against its claimed type, then as PDF (images, PDFs) or as HTML (DOCX). */
export async function prepareUpload(given: Uint8Array, contentType: string): Promise<Prepared> {
  // pdf-lib reads a JPEG through its whole ArrayBuffer: a Buffer that is a view into Node's shared
  // pool (a small file read in this thread) is copied into its own first.
  const bytes = given.byteOffset === 0 && given.byteLength === given.buffer.byteLength ? given : new Uint8Array(given);
  await assertRealType(bytes, contentType);
  switch (contentType) {
    case 'image/png':
    case 'image/jpeg':
      return { pdf: await imageToPdf(bytes, contentType) };
    case 'application/pdf':
      return { pdf: await checkedPdf(bytes) };
    case DOCX_TYPE:
      return { html: await docxToHtml(bytes) };
    default:
      throw new ConversionError(fileMessages.wrongType);
  }
}
