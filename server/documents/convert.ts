import { fileTypeFromBuffer } from 'file-type';
import JSZip from 'jszip';
import mammoth from 'mammoth';
import { EncryptedPDFError, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { CONVERSION_FAILED_MESSAGE, fileMessages } from '../../domain/messages';
import { DOCX_TYPE } from '../../domain/rules/files';
import { BrowserTimeoutError, printOptions, withBrowserPage } from '../infra/browser';

export const conversionMessages = {
  unreadable: 'Your file could not be read. It may be damaged; please upload it again or choose another file.',
  encrypted: 'Your PDF is protected by a password. Please upload a copy without a password.',
  failed: CONVERSION_FAILED_MESSAGE,
  missing: 'We could not find your uploaded file. Please upload it again.',
  tooComplex: 'This document is too long or complex to convert. Please upload a shorter file, or save it as a PDF and upload that.',
} as const;

/**
 * A DOCX is a ZIP: 1 MB of it can unpack to hundreds of megabytes (one paragraph repeated a
 * million times). Its sizes are read from the archive's directory before anything unpacks it.
 */
const DOCX_BOUNDS = { entries: 1_000, documentXmlBytes: 2_000_000, totalBytes: 30_000_000 } as const;

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
}

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
  return pdf.save();
}

async function docxToPdf(bytes: Uint8Array, chromiumPath: string): Promise<Uint8Array> {
  await assertDocxWithinBounds(bytes);
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) }));
  } catch {
    throw new ConversionError(conversionMessages.unreadable);
  }
  const page = `<!doctype html><html><head><meta charset="utf-8"><style>
    body { font: 11pt/1.45 Georgia, 'DejaVu Serif', serif; color: #000; }
    img { max-width: 100%; } table { border-collapse: collapse; } td, th { border: 1px solid #999; padding: 2pt 4pt; }
  </style></head><body>${html}</body></html>`;
  // The document's HTML is the applicant's: no scripts run and nothing is fetched from anywhere
  // (mammoth inlines images as data: URLs).
  try {
    return await withBrowserPage(
      chromiumPath,
      async (browserPage) => {
        await browserPage.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
        await browserPage.setContent(page, { waitUntil: 'load' });
        return browserPage.pdf(printOptions);
      },
      { javaScriptEnabled: false },
    );
  } catch (error) {
    if (error instanceof BrowserTimeoutError) throw new ConversionError(conversionMessages.tooComplex);
    throw error;
  }
}

/** The file as PDF: images become a page each, a PDF is checked and kept, DOCX is printed. */
export async function convertToPdf(bytes: Uint8Array, contentType: string, chromiumPath: string): Promise<Uint8Array> {
  await assertRealType(bytes, contentType);
  switch (contentType) {
    case 'image/png':
    case 'image/jpeg':
      return imageToPdf(bytes, contentType);
    case 'application/pdf':
      return checkedPdf(bytes);
    case DOCX_TYPE:
      return docxToPdf(bytes, chromiumPath);
    default:
      throw new ConversionError(fileMessages.wrongType);
  }
}
