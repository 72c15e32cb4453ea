import { describe, expect, it } from 'vitest';
import { printPageHtml } from './printPage';

describe('printPageHtml', () => {
  const view = {
    username: 'jordan@example.com',
    application_number: 100042,
    submitted_at: '2026-11-20T16:02:11.000Z',
    answer: { first_name: '<img src=x onerror=alert(1)>', last_name: 'Rivera & Sons', birth_date: '2008-04-17', legal_agree: true },
    add_another: {},
    document_answer: {},
    tabs: {},
  };

  it('is a whole page of the print view: title, language, styles, the answers as a reader reads them', () => {
    const html = printPageHtml(view);
    expect(html).toMatch(/^<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Application 100042: &lt;img src=x onerror=alert\(1\)&gt; Rivera &amp; Sons \| [^<]+<\/title><style>/);
    expect(html).toContain('.print__answer');
    expect(html).toContain('.visually-hidden');
    expect(html).toContain('data-print-ready="true"');
    expect(html).toContain('<dt>Account</dt><dd>jordan@example.com</dd>');
    expect(html).toContain('<dt>Application number</dt><dd>100042</dd>');
    expect(html).toContain('<dt>Submitted</dt><dd>November 20, 2026</dd>');
    expect(html).toContain('April 17, 2008');
    expect(html).toContain('Checked: ');
  });

  it('escapes every answer: an answer is text, never markup', () => {
    const html = printPageHtml(view);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Rivera &amp; Sons');
  });

  it('escapes the applicant name in the title and in the page header rule', () => {
    expect(printPageHtml({ ...view, username: 'a</title><script>x</script>@example.com' })).not.toContain('<script>');
    const html = printPageHtml({ ...view, answer: { first_name: 'Jo"; } body { display: none', last_name: '</style><script>x</script>\\' } });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('</style><script>');
    // One header rule, its text wholly inside one CSS string.
    const rule = /@top-left \{ content: ("(?:[^"\\]|\\.)*");/.exec(html)?.[1];
    expect(rule).toMatch(/^"Jo\\22 \\3b {2}\\7d {2}body \\7b {2}display\\3a {2}none /);
  });
});
