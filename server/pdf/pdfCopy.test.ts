import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFRef, PDFString, type PDFObject } from 'pdf-lib';
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
function structureTypes(pdf: PDFDocument): string[] {
  const types: string[] = [];
  const walk = (node: PDFObject | undefined) => {
    const value = node instanceof PDFRef ? pdf.context.lookup(node) : node;
    if (value instanceof PDFArray) value.asArray().forEach(walk);
    else if (value instanceof PDFDict && !(value.get(PDFName.of('Type')) === PDFName.of('MCR'))) {
      const type = value.get(PDFName.of('S'));
      if (type instanceof PDFName) types.push(type.decodeText());
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
