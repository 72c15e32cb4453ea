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

/** Signs in through the Sign In card and waits for the form. */
export async function signInThroughUi(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/about$/);
}
