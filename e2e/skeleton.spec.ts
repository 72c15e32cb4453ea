import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './axe';

/**
 * The built client as the real server serves it: a real browser loads the bundle, its chunks and
 * routes; the server serves the build and answers its calls.
 */

test.describe('the app on the real server', () => {
  test('/login renders the sign-in screen without axe violations', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
    await expect(page).toHaveTitle('Sign In | Northfield University Undergraduate Application');
    await expectNoAxeViolations(page);
  });

  test('/about renders step 1 with the step navigation without axe violations', { tag: '@layout' }, async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
    const steps = page.getByRole('navigation', { name: 'Application steps' });
    await expect(steps.getByRole('link')).toHaveText(['1 About You', '2 Academics', '3 Final Steps']);
    await expect(steps.getByRole('link', { name: '1 About You' })).toHaveAttribute('aria-current', 'page');
    await expectNoAxeViolations(page);
  });

  test("/about's page announces the form's chunks, and the page asks for none of them again", async ({ page, request }) => {
    const html = await (await request.get('/about')).text();
    const announced = [...html.matchAll(/<link rel="(?:modulepreload|preload)"[^>]* href="(\/assets\/[^"]+)">/g)].map((m) => m[1]!);
    // The build's form chunks (FormOrPrintRoot, FormPage and what they share) and the form's styles.
    expect(announced.some((href) => /FormOrPrintRoot-.*\.js$/.test(href))).toBe(true);
    expect(announced.some((href) => /FormPage-.*\.js$/.test(href))).toBe(true);
    expect(announced.some((href) => href.endsWith('.css'))).toBe(true);
    for (const href of announced) expect((await request.get(href)).status(), href).toBe(200);
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
    for (const href of announced) expect(asked.filter((p) => p === href), href).toHaveLength(1);
  });

  test('an unknown path goes to /about and keeps the query string', async ({ page }) => {
    // Not `token`: the form takes that one out of the address once it has tried it (anonymous.spec.ts).
    await page.goto('/no/such/page?ref=abc123&x=1');
    await expect(page).toHaveURL(/\/about\?ref=abc123&x=1$/);
    await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
  });

  test('every route of the spec renders its screen', async ({ page }) => {
    const screens: [string, string][] = [
      ['/signup', 'Create Account'],
      ['/confirm', 'Confirm Your Account'],
      ['/forgot', 'Forgot Password'],
      ['/reset?username=a%40b.c&id=x', 'Reset Password'],
      ['/education', 'Academics'],
      ['/final-steps', 'Final Steps'],
      // A visitor is not submitted, so /completion sends them to the default route.
      ['/completion', 'About You'],
    ];
    for (const [url, heading] of screens) {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    }
  });

  test('the step links move between the form pages', async ({ page }) => {
    await page.goto('/about');
    await page.getByRole('link', { name: '2 Academics' }).click();
    await expect(page).toHaveURL(/\/education$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Academics' })).toBeVisible();
  });

  test('the API answers JSON, never the client page', async ({ request }) => {
    const health = await request.get('/healthz');
    expect(await health.json()).toEqual({ status: 'ok', database: 'ok', renderer: 'ok', storage: 'ok' });
    const missing = await request.get('/public/no-such-call');
    expect(missing.status()).toBe(404);
    expect(await missing.json()).toEqual({ message: 'We could not find that.' });
  });
});
