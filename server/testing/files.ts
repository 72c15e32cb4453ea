import { readFile } from 'node:fs/promises';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';

/** Small real files of each accepted type, made by the tests (each carries a text to find later). */
export interface FixtureFiles {
  png: Buffer;
  jpeg: Buffer;
  pdf: Buffer;
  docx: Buffer;
  /** A Windows program's first bytes: what a renamed executable looks like. */
  exe: Buffer;
}

export const FIXTURE_TEXT = {
  pdf: 'Fixture PDF page for the portal',
  docx: 'Fixture Word document for the portal',
} as const;

/**
 * PNG and JPEG: a small coloured card (160 × 90, "Fixture image"), screenshots Chromium took once,
 * kept in fixtures/ (a browser launched for them cost every suite that needs files a second or
 * two); PDF by pdf-lib; DOCX by JSZip.
 */
export async function makeFixtureFiles(): Promise<FixtureFiles> {
  const [png, jpeg] = await Promise.all(['card.png', 'card.jpg'].map((name) => readFile(new URL(`fixtures/${name}`, import.meta.url))));
  return { png: png!, jpeg: jpeg!, pdf: await makePdf(FIXTURE_TEXT.pdf), docx: await makeDocx(FIXTURE_TEXT.docx), exe: makeExe() };
}

async function makePdf(text: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([612, 792]).drawText(text, { x: 72, y: 700, size: 14, font });
  return Buffer.from(await pdf.save());
}

/** The smallest valid Word document: content types, package relations and `paragraphs` copies of one paragraph. */
export async function makeDocx(text: string, paragraphs = 1): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${`<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`.repeat(paragraphs)}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** An MZ/PE header with padding: file-type reads it as a Windows executable. */
function makeExe(): Buffer {
  const bytes = Buffer.alloc(1024);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('PE\0\0', 0x80, 'latin1');
  return bytes;
}

/** The text of each page of a PDF, in order. */
export async function pdfTextByPage(bytes: Uint8Array): Promise<string[]> {
  const document = await getDocumentProxy(new Uint8Array(bytes));
  return (await extractText(document, { mergePages: false })).text;
}
