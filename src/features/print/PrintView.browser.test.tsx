import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import type { ServiceView } from '../../../views/document/ApplicationDocument';
import { axeViolations } from '../../test/axe';
import { PrintView } from './PrintView';

const view: ServiceView = {
  username: 'jordan@example.com',
  application_number: 100042,
  submitted_at: '2026-11-20T16:02:11.000Z',
  answer: {
    first_name: 'Jordan',
    last_name: 'Rivera',
    birth_date: '2008-04-17',
    country: 'USA',
    country_desc: 'United States',
    citizenship_type: 'R',
    citizenship_type_desc: 'U.S. permanent resident',
    student_upload_card: 'ANSWERED',
    sibling_first_name: 'Sam',
    sibling_2_first_name: 'Lee',
    legal_agree: true,
    signature: 'Jordan Rivera',
  },
  add_another: { add_sibling: 2 },
  document_answer: { student_upload_card: { file_name: 'card.jpg', file_size: 48213 } },
  tabs: {},
};

/** The print view's one call, answered like the server would. */
function answerServiceView(status: number, body: unknown) {
  const fetchMock = vi.fn(async (request: Request) => {
    expect(new URL(request.url).searchParams.get('service_token')).toBe('token-0123456789abcdef');
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('PrintView', () => {
  // Issue 48: the @page rule was an inline <style>, which the page's CSP (style-src 'self')
  // blocks: the browser's print had no header, no "Page N of M" and the default page.
  it('prints its page header and numbers from an adopted stylesheet, no inline <style>; a phone from abroad grouped as the PDF copy groups it', async () => {
    answerServiceView(200, { ...view, answer: { ...view.answer, phone_international: '+442079460958' } });
    const screen = await render(<PrintView token="token-0123456789abcdef" />);
    await expect.element(screen.getByRole('heading', { level: 1 })).toBeVisible();
    expect(document.querySelector('main style')).toBeNull();
    const rules = document.adoptedStyleSheets.flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText));
    const page = rules.find((rule) => rule.startsWith('@page'));
    expect(page).toContain('size: letter');
    expect(page).toContain('Jordan Rivera');
    expect(page).toContain('counter(pages)');
    await expect.element(screen.getByText('+44 20 7946 0958')).toBeVisible();
  });

  it('shows labelled plain values and checkbox marks, no inputs or buttons, only groups with answers', async () => {
    answerServiceView(200, view);
    const screen = await render(<PrintView token="token-0123456789abcdef" />);
    await expect.element(screen.getByRole('heading', { level: 1, name: 'Northfield University Undergraduate Application' })).toBeVisible();
    // Who, which application and when, before any answer (and atop every printed page: pageStyle.ts).
    expect(document.querySelector('.print__identity')!.textContent).toBe(
      'ApplicantJordan RiveraApplication number100042SubmittedNovember 20, 2026Accountjordan@example.com',
    );
    expect(document.title).toMatch(/^Application 100042: Jordan Rivera/);
    const main = document.querySelector('main')!;
    expect(main.dataset.printReady).toBe('true');
    expect(main.querySelectorAll('input, select, textarea, button, nav, header, footer, hr')).toHaveLength(0);
    expect([...main.querySelectorAll('h2')].map((h) => h.textContent)).toEqual(['About You', 'Academics', 'Final Steps']);
    await expect.element(screen.getByText('United States')).toBeVisible();
    await expect.element(screen.getByText('card.jpg (48 kB)')).toBeVisible();
    // Dates as a reader writes them, not as stored.
    await expect.element(screen.getByText('April 17, 2008')).toBeVisible();
    expect(main.textContent).not.toContain('2008-04-17');
    // Repeated groups print each shown instance.
    await expect.element(screen.getByRole('heading', { name: 'Sibling 2' })).toBeVisible();
    expect(main.textContent).toContain('Checked: I agree to the above statements.');
    // What the applicant agreed to prints with the agreement.
    expect(main.textContent).toMatch(/I certify that the information in this application is complete, true and my own work\..*Checked: I agree to the above statements\./);
    expect(main.textContent).toContain('☒');
    // A group with no answers (disciplinary history) is not printed.
    expect(main.textContent).not.toContain('Disciplinary History');
    expect(await axeViolations()).toEqual([]);
  });

  it('prints the mailing address and a second parent under headings of their own', async () => {
    answerServiceView(200, {
      ...view,
      answer: {
        ...view.answer,
        address_line_1: '1200 Larimer St',
        mailing_addr_same_as_perm_addr: 'N',
        mailing_address_line_1: 'PO Box 99',
        parent_marital_status: 'Married',
        parent_first_name: 'Ana',
        parent_2_living: 'Y',
        parent_2_first_name: 'Luis',
      },
    });
    const screen = await render(<PrintView token="token-0123456789abcdef" />);
    await expect.element(screen.getByText('PO Box 99')).toBeVisible();
    const headings = [...document.querySelectorAll('main h3, main h4')].map((h) => `${h.tagName} ${h.textContent}`);
    expect(headings).toEqual(
      expect.arrayContaining(['H3 Permanent Address', 'H4 Mailing Address', 'H3 Parents and Guardians', 'H4 Primary Parent/Guardian', 'H4 Secondary Parent/Guardian']),
    );
    // The mailing street is under its heading, after the permanent one.
    expect(headings.indexOf('H4 Mailing Address')).toBe(headings.indexOf('H3 Permanent Address') + 1);
    expect(await axeViolations()).toEqual([]);
  });

  it('says when the link is wrong or expired (401), with no axe violations', async () => {
    answerServiceView(401, { message: 'This print link has expired or is not valid. Please ask for a new one.' });
    const screen = await render(<PrintView token="token-0123456789abcdef" />);
    await expect.element(screen.getByRole('alert')).toHaveTextContent('This print link has expired or is not valid. Please ask for a new one.');
    expect(document.querySelector('[data-print-ready]')).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });
});
