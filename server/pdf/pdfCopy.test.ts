import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFString, type PDFObject } from 'pdf-lib';
import { getDocumentProxy } from 'unpdf';
import { PAGE } from '../../views/document/pageStyle';
import { textOutsideTagsAsArtifacts } from './pdfTags';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumExecutablePath } from '../../chromium';
import { closeBrowsers } from '../infra/browser';
import { fullApplicationView } from '../testing/fullApplication';
import { pdfTextByPage } from '../testing/files';
import { composeCopy } from './pdfCopy';

/*
 * The PDF copy as readers read it all day (issue 30): the printer itself (Chromium, then pdf-lib),
 * without a database or a job. A full application with two attached documents, read back with a
 * PDF library: pages, the header on each, the outline and the tags.
 */

const view = fullApplicationView();
let copy: PDFDocument;
let pages: string[];

/** A document of `count` pages, each saying which it is; the second one landscape. */
async function attachment(label: string, count: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let page = 1; page <= count; page++) pdf.addPage(page === 2 ? [792, 612] : [612, 792]).drawText(`${label} page ${page}`, { x: 72, y: 700 });
  return pdf.save();
}

beforeAll(async () => {
  const bytes = await composeCopy(chromiumExecutablePath, view, [
    { answerKey: 'student_upload_card', fileName: 'card.pdf', bytes: await attachment('Card', 1) },
    { answerKey: 'additional_info_doc', fileName: 'essay.pdf', bytes: await attachment('Essay', 2) },
  ]);
  [copy, pages] = await Promise.all([PDFDocument.load(bytes), pdfTextByPage(bytes)]);
}, 120_000);
afterAll(() => closeBrowsers());

const decode = (value: PDFObject | undefined) => (value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined);

/** The outline's entries, depth first, as "  " × depth + title. */
function outlineOf(pdf: PDFDocument): string[] {
  const titles: string[] = [];
  const walk = (first: PDFObject | undefined, depth: number) => {
    for (let item = pdf.context.lookupMaybe(first, PDFDict); item; item = pdf.context.lookupMaybe(item.get(PDFName.of('Next')), PDFDict)) {
      titles.push(`${'  '.repeat(depth)}${decode(item.get(PDFName.of('Title')))}`);
      walk(item.get(PDFName.of('First')), depth + 1);
    }
  };
  walk(pdf.catalog.lookupMaybe(PDFName.of('Outlines'), PDFDict)?.get(PDFName.of('First')), 0);
  return titles;
}

/** Every structure element's type (H1, P, L, …) in the tag tree, in reading order. */
function structureTypes(pdf: PDFDocument, alts: string[] = []): string[] {
  const types: string[] = [];
  const walk = (node: PDFObject | undefined) => {
    const value = node instanceof PDFRef ? pdf.context.lookup(node) : node;
    if (value instanceof PDFArray) value.asArray().forEach(walk);
    else if (value instanceof PDFDict && !(value.get(PDFName.of('Type')) === PDFName.of('MCR'))) {
      const type = value.get(PDFName.of('S'));
      if (type instanceof PDFName) types.push(type.decodeText());
      const alt = decode(value.get(PDFName.of('Alt')));
      if (alt !== undefined) alts.push(alt);
      if (!(value.get(PDFName.of('K')) instanceof PDFNumber)) walk(value.get(PDFName.of('K')));
    }
  };
  walk(pdf.catalog.lookupMaybe(PDFName.of('StructTreeRoot'), PDFDict)?.get(PDFName.of('K')));
  return types;
}

describe('the PDF copy of a full application (issue 30)', () => {
  it('is at most 6 pages before its attachments; each attached page follows on a page of its own, under its caption', () => {
    const attached = 3;
    const documentPages = copy.getPageCount() - attached;
    expect(documentPages).toBeGreaterThanOrEqual(3);
    expect(documentPages).toBeLessThanOrEqual(6);
    expect(pages.at(-3)).toContain('Attachment for Permanent Resident Card: card.pdf');
    expect(pages.at(-3)).toContain('Card page 1');
    expect(pages.at(-2)).toContain('Attachment for Additional Information: essay.pdf (page 1 of 2)');
    expect(pages.at(-2)).toContain('Essay page 1');
    expect(pages.at(-1)).toContain('Attachment for Additional Information: essay.pdf (page 2 of 2)');
    expect(pages.at(-1)).toContain('Essay page 2');
    // No page of the document is mostly empty but the last: each holds at least half the average.
    const lengths = pages.slice(0, documentPages - 1).map((text) => text.length);
    const average = lengths.reduce((a, b) => a + b, 0) / lengths.length;
    for (const length of lengths) expect(length).toBeGreaterThan(average / 2);
  });

  it('heads every page, attachments included, with the legal name, the application number, the submission date and "Page N of M"', () => {
    const total = copy.getPageCount();
    pages.forEach((text, index) => {
      expect(text).toContain('Alexandra Fitzgerald-Okonkwo · Application 100042 · Submitted November 20, 2026');
      expect(text).toContain(`Page ${index + 1} of ${total}`);
    });
  });

  it('prints what the applicant certified with the agreement, and every answer a reader needs', () => {
    const all = pages.join('\n');
    expect(all).toContain('I certify that the information in this application is complete, true and my own work.');
    expect(all).toMatch(/I certify[^]*I agree to the above statements\./);
    for (const heading of ['Sibling 5', 'High School 3', 'Family Connection 5', 'Secondary Parent/Guardian', 'Agreement and Signature']) expect(all).toContain(heading);
  });

  it('has an outline to jump to each step, section and attached document', () => {
    const outline = outlineOf(copy).map((title) => title.trim());
    for (const title of ['Northfield University Undergraduate Application', 'About You', 'Academics', 'Final Steps', 'Sibling 5', 'High School 3']) {
      expect(outline).toContain(title);
    }
    expect(outline).toContain('Attachment for Permanent Resident Card: card.pdf');
    expect(outline).toContain('Attachment for Additional Information: essay.pdf (page 1 of 2)');
    // One entry per document, not per page.
    expect(outline.filter((title) => title.includes('essay.pdf'))).toHaveLength(1);
  });

  it('is tagged for a screen reader: a structure tree of headings and lists, the language, a title shown as the window title', () => {
    const markInfo = copy.catalog.lookupMaybe(PDFName.of('MarkInfo'), PDFDict);
    expect(markInfo?.get(PDFName.of('Marked'))?.toString()).toBe('true');
    const types = structureTypes(copy);
    expect(types.filter((type) => type === 'H1')).toHaveLength(1);
    expect(types.filter((type) => type === 'H2').length).toBeGreaterThanOrEqual(3 + 2);
    expect(types).toContain('L');
    expect(types).toContain('LI');
    expect(decode(copy.catalog.get(PDFName.of('Lang')))).toBe('en');
    expect(copy.getTitle()).toBe('Application 100042: Alexandra Fitzgerald-Okonkwo | Northfield University Undergraduate Application');
    const preferences = copy.catalog.lookupMaybe(PDFName.of('ViewerPreferences'), PDFDict);
    expect(preferences?.get(PDFName.of('DisplayDocTitle'))?.toString()).toBe('true');
  });
});

/** A page's content, its streams decoded and joined. */
function contentOf(pdf: PDFDocument, index: number): string {
  const contents = pdf.getPage(index).node.get(PDFName.of('Contents'));
  const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
  return refs.map((ref) => Buffer.from(decodePDFRawStream(pdf.context.lookup(ref as PDFRef) as PDFRawStream).decode()).toString('latin1')).join('\n');
}

describe('the PDF copy, tagged for a screen reader (issue 48)', () => {
  it('marks every page header and page number as a pagination artifact: no text is left outside the structure', () => {
    for (let index = 0; index < copy.getPageCount(); index++) {
      const content = contentOf(copy, index);
      expect(textOutsideTagsAsArtifacts(content), `page ${index + 1}`).toBeNull();
      expect(content.match(/\/Artifact <<\/Type \/Pagination>> BDC/g)?.length, `page ${index + 1}`).toBeGreaterThanOrEqual(2);
    }
  });

  it('tags each attached page as a Figure whose alternative text is its caption, its own text still readable', () => {
    const alts: string[] = [];
    const types = structureTypes(copy, alts);
    expect(types.filter((type) => type === 'Figure')).toHaveLength(3);
    expect(alts).toEqual(
      expect.arrayContaining([
        'Attachment for Permanent Resident Card: card.pdf',
        'Attachment for Additional Information: essay.pdf (page 1 of 2)',
        'Attachment for Additional Information: essay.pdf (page 2 of 2)',
      ]),
    );
    expect(pages.at(-1)).toContain('Essay page 2');
  });

  it('wraps only text drawn outside marked content, and leaves a page with none as it is', () => {
    const page = 'BT /F1 9 Tf (Name · 1 · Submitted) Tj ET\n/P <</MCID 0>> BDC BT (answer \\) BT) Tj ET EMC\nBT <0027> Tj ET';
    expect(textOutsideTagsAsArtifacts(page)).toBe(
      '\n/Artifact <</Type /Pagination>> BDC\nBT /F1 9 Tf (Name · 1 · Submitted) Tj ET\nEMC\n\n/P <</MCID 0>> BDC BT (answer \\) BT) Tj ET EMC\n\n/Artifact <</Type /Pagination>> BDC\nBT <0027> Tj ET\nEMC\n',
    );
    expect(textOutsideTagsAsArtifacts('/P <</MCID 0>> BDC BT (a) Tj ET EMC')).toBeNull();
    expect(textOutsideTagsAsArtifacts('BI /W 1 /H 1 ID x EI BT (a) Tj ET')).toBeNull();
  });
});

// Issue 48: long answers near their limits each jumped whole to the next page: 7 pages before the
// attachments, one of them a fifth used.
describe('the PDF copy of the maximal application, every text at its limit', () => {
  it('is at most 6 pages, no page but the last under 40 % used, a long answer running on over a page break', async () => {
    const bytes = await composeCopy(chromiumExecutablePath, fullApplicationView({ textsAtTheirLimit: true }), []);
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    expect(pdf.numPages).toBeLessThanOrEqual(6);
    // The page's content box, in points from the bottom: the header and page number lie outside it.
    const top = (PAGE.heightIn - PAGE.topIn) * 72;
    const bottom = PAGE.bottomIn * 72;
    const used: number[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const items = (await (await pdf.getPage(number)).getTextContent()).items as Array<{ str: string; transform: number[] }>;
      const lowest = Math.min(...items.filter((item) => item.str.trim() && item.transform[5]! > bottom && item.transform[5]! < top).map((item) => item.transform[5]!));
      used.push((top - lowest) / (top - bottom));
    }
    for (const [index, share] of used.slice(0, -1).entries()) expect(share, `page ${index + 1}`).toBeGreaterThanOrEqual(0.4);
  }, 60_000);
});
