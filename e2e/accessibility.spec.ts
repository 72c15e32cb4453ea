import { expect, test } from './support/fixtures';
import { uniqueEmail } from './support/accounts';
import { openStep } from './support/form';
import { axeViolationsAtBothWidths } from './axe';

/**
 * Issue 13's accessibility sweep: every screen in each of its states (empty, field errors, error
 * toast, error summary, each dialog and the popover, the print view) checked by axe at 390 px and
 * at desktop width: WCAG 2.0/2.1/2.2 A and AA, zero violations. One run collects every state's
 * violations, so a failure lists them all. A real browser: axe reads the page as drawn, with its
 * colours and sizes; the real server: the refusals and the summary are the server's answers.
 */

test.describe.configure({ timeout: 180_000 });

const sweep = axeViolationsAtBothWidths;

test('visitor screens: every sign-in card, empty and refused, the form, its popover and dialog, the print view', async ({ page }) => {
  const found: string[] = [];
  const card = async (path: string, heading: string, submit: string, state: string, before?: () => Promise<void>) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    found.push(...(await sweep(page, `${path} empty`)));
    await before?.();
    await page.getByRole('button', { name: submit, exact: true }).click();
    await expect(page.locator('[id$="-error"]').first().or(page.locator('.toast')).first()).toBeVisible();
    found.push(...(await sweep(page, `${path} ${state}`)));
  };
  await card('/login', 'Sign In', 'Sign In', 'field errors');
  await card('/login', 'Sign In', 'Sign In', 'error toast', async () => {
    await page.getByLabel('Email Address').fill(uniqueEmail('nobody'));
    await page.getByLabel('Password', { exact: true }).fill('Wrong-password-1!');
  });
  await card('/signup', 'Create Account', 'Create Account', 'field errors');
  await card('/confirm', 'Confirm Your Account', 'Confirm Account', 'field errors');
  await card('/forgot', 'Forgot Password', 'Send Reset Link', 'field errors');
  await card('/reset?username=a%40example.com&id=x', 'Reset Password', 'Reset Password', 'field errors');

  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
  found.push(...(await sweep(page, '/about as a visitor')));
  await page.getByRole('button', { name: 'Account' }).click();
  await expect(page.getByRole('dialog', { name: 'Account' })).toBeVisible();
  found.push(...(await sweep(page, 'account popover (visitor)')));
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Account' })).toBeHidden();
  await page.locator('#first_name').fill('Robin');
  await page.getByRole('button', { name: 'Save and finish later' }).click();
  await expect(page.getByRole('dialog', { name: 'Save and Finish Later' })).toBeVisible();
  found.push(...(await sweep(page, 'Save and Finish Later dialog')));

  await page.goto('/about?service_token=not-a-real-token-0123456789');
  await expect(page.getByRole('alert')).toBeVisible();
  found.push(...(await sweep(page, 'print view, refused link')));
  expect(found).toEqual([]);
});

test('signed-in screens: each step with its error summary, the popover, the inactivity dialog', async ({ page, applicant: _ }) => {
  await page.clock.install();
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
  const found: string[] = [];
  found.push(...(await sweep(page, '/about signed in, first visit')));

  // A refused submit: every step then shows its messages, and the first one its summary.
  await openStep(page, 'Final Steps');
  await page.getByRole('button', { name: 'Save and Submit' }).click();
  await expect(page.getByRole('region', { name: "We're missing some information!" })).toBeFocused();
  found.push(...(await sweep(page, 'About You with the error summary')));
  for (const step of ['Academics', 'Final Steps'] as const) {
    await openStep(page, step);
    await expect(page.locator('[id$="-error"]').first()).toBeVisible();
    found.push(...(await sweep(page, `${step} with its messages`)));
  }

  await page.getByRole('button', { name: 'Account' }).click();
  await expect(page.getByRole('dialog', { name: 'Account' })).toBeVisible();
  found.push(...(await sweep(page, 'account popover (signed in)')));
  await page.keyboard.press('Escape');

  await page.waitForFunction(() => localStorage.getItem('portal.lastActivity') !== null);
  await page.clock.fastForward('14:01');
  await expect(page.getByRole('dialog', { name: 'Still working?' })).toBeVisible();
  found.push(...(await sweep(page, 'Still working? dialog')));
  expect(found).toEqual([]);
});
