import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { postgresReason } from '../server/testing/db';
import { dropAll, freshPostgres, ServerProcess, until } from '../server/testing/serverProcess';
import { fillAndSubmit } from './support/form';
import { PASSWORD, uniqueEmail } from './support/accounts';

/**
 * Issue 14, scale-out: two app instances and a separate worker on one PostgreSQL and one storage
 * folder; the page's calls alternate between the instances, and the whole journey holds (sign-up,
 * confirmation, sign-in, three pages, submit, the PDF copy printed by the worker). A real browser,
 * so the page's own calls are what is spread over the two real servers.
 */

const CALLS = /^\/(api|public|lookup|dev)(\/|$)/;
const databases: (() => Promise<void>)[] = [];
const processes: ServerProcess[] = [];

test.afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await dropAll(databases);
});

// As in keyboard.spec: a call still in the route handler when the test ends (the completion page
// asks for the copy once a second) must not fail a journey that passed.
test.afterEach(({ page }) => page.unrouteAll({ behavior: 'ignoreErrors' }));

test('the journey with calls alternating between two instances and the jobs on a separate worker', async ({ page }) => {
  const skipReason = await postgresReason();
  if (skipReason) console.warn(`SKIPPED (two-instance journey): ${skipReason}`);
  test.skip(skipReason !== null, skipReason ?? '');
  test.setTimeout(240_000);

  const shared = {
    DATABASE_URL: await freshPostgres(databases),
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'portal-scale-')),
    SESSION_SECRET: 'a-session-secret-both-instances-share-0123456789',
    IN_PROCESS_WORKER: 'false',
  };
  const clientDir = path.resolve('dist');
  const first = new ServerProcess(shared, clientDir);
  await first.start(); // migrates and loads the lists once; the second finds them there
  const second = new ServerProcess({ ...shared, PUBLIC_URL: first.url }, clientDir);
  await second.start();
  const worker = new ServerProcess({ ...shared, PUBLIC_URL: first.url }, clientDir, 'server/worker.ts');
  await worker.start();
  processes.push(first, second, worker);

  const served = { first: 0, second: 0 };
  await page.route(
    (url) => url.origin === first.url && CALLS.test(url.pathname),
    async (route) => {
      const turn = served.first <= served.second ? 'first' : 'second';
      served[turn]++;
      if (turn === 'first') return route.continue();
      const url = new URL(route.request().url());
      const response = await route.fetch({ url: `${second.url}${url.pathname}${url.search}` });
      await route.fulfill({ response });
    },
  );

  const email = uniqueEmail('scale');
  await page.goto(`${first.url}/signup`);
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/confirm$/);
  const code = await until('the confirmation mail', async () => {
    const mails = (await (await page.request.get(`${second.url}/dev/outbox?to=${encodeURIComponent(email.toLowerCase())}`)).json()) as { text: string }[];
    return /\b(\d{6})\b/.exec(mails.at(-1)?.text ?? '')?.[1];
  });
  await page.getByLabel('Confirmation Code').fill(code);
  await page.getByRole('button', { name: 'Confirm Account' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await fillAndSubmit(page);

  // Printed by the worker, readable through either instance.
  await expect(page.getByRole('link', { name: 'Download a PDF copy of your application' })).toBeVisible({ timeout: 90_000 });
  for (const server of [first, second]) {
    const copy = await page.request.get(`${server.url}/api/pdf/download`);
    expect(copy.status()).toBe(200);
    expect((await copy.body()).subarray(0, 5).toString()).toBe('%PDF-');
  }
  expect(served.first).toBeGreaterThan(5);
  expect(served.second).toBeGreaterThan(5);
  console.log(`two instances: ${served.first} + ${served.second} calls, one worker, one PostgreSQL`);
});
