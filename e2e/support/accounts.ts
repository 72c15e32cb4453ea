import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { codeIn, waitForMail } from './mail';

export const PASSWORD = 'Correct-Horse-42!';

let counter = 0;
export const uniqueEmail = (label: string) => `${label}.${Date.now()}.${process.pid}.${counter++}@example.com`;

/** A confirmed account made through the API, its code read from the e-mail the sink received. */
export async function confirmedAccount(request: APIRequestContext, email: string, password = PASSWORD) {
  expect((await request.post('/public/signup', { data: { username: email, password } })).ok()).toBe(true);
  const code = codeIn(await waitForMail(email));
  expect((await request.post('/public/confirm', { data: { username: email, code } })).ok()).toBe(true);
}

/** Signs in on the Sign In card already open and waits for the form itself (the address changes first). */
export async function signInOnCard(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
}

/** Logs out through the account popover and waits for the Sign In screen itself. */
export async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
}

/** What the server holds for the signed-in account of this browser context. */
export async function savedAnswers(request: APIRequestContext): Promise<Record<string, unknown>> {
  const response = await request.get('/api/profile');
  expect(response.status()).toBe(200);
  return ((await response.json()) as { answer: Record<string, unknown> }).answer;
}
