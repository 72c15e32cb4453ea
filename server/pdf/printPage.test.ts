import { describe, expect, it } from 'vitest';
import { printPageHtml } from './printPage';

describe('printPageHtml', () => {
  const view = {
    username: 'jordan@example.com',
    answer: { first_name: '<img src=x onerror=alert(1)>', last_name: 'Rivera & Sons', birth_date: '2008-04-17', legal_agree: true },
    add_another: {},
    document_answer: {},
    tabs: {},
  };

  it('is a whole page of the print view: title, language, styles, the answers as a reader reads them', () => {
    const html = printPageHtml(view);
    expect(html).toMatch(/^<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Application of jordan@example.com \| [^<]+<\/title><style>/);
    expect(html).toContain('.print__answer');
    expect(html).toContain('.visually-hidden');
    expect(html).toContain('data-print-ready="true"');
    expect(html).toContain('Applicant: jordan@example.com');
    expect(html).toContain('April 17, 2008');
    expect(html).toContain('Checked: ');
  });

  it('escapes every answer: an answer is text, never markup', () => {
    const html = printPageHtml(view);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Rivera &amp; Sons');
  });

  it('escapes the applicant name in the title', () => {
    expect(printPageHtml({ ...view, username: 'a</title><script>x</script>@example.com' })).not.toContain('<script>');
  });
});
