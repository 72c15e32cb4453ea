import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeApplication } from '../../domain/catalogue/completeApplication';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { until } from '../testing/serverProcess';
import { answerMessages } from './answers';
import { submissionMessages } from './submission';
import { eq } from 'drizzle-orm';
import { applications, pdfCopies, users } from '../infra/schema';

// The embedded database only: these are the calls' rules, the same on either driver (the
// statements themselves run on both in answers.test.ts).
describe('the application', () => {
  describe('', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp();
    });
    afterAll(async () => t?.close());

    const call = (cookie: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, payload, headers: { cookie } });

    it('refuses to submit an incomplete application with 400 and the field errors, then submits once it is complete', async () => {
      const cookie = await signedInCookie(t);
      await call(cookie, 'PUT', '/api/answer', { ...completeApplication, signature: '' });
      const refused = await call(cookie, 'POST', '/api/submit');
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ message: submissionMessages.missing, errors: { signature: ['Full Legal Name'] } });
      expect((await call(cookie, 'GET', '/api/profile')).json().web_status).toEqual([]);

      await call(cookie, 'PUT', '/api/answer', { signature: 'Jordan Rivera' });
      const submitted = await call(cookie, 'POST', '/api/submit');
      expect(submitted.json()).toEqual({ message: submissionMessages.submitted });
      const profile = (await call(cookie, 'GET', '/api/profile')).json();
      expect(new Set(profile.web_status.map((s: { web_status: string }) => s.web_status))).toEqual(new Set(['started', 'validating', 'submitted']));

      // Idempotent, and the answers are frozen.
      const again = await call(cookie, 'POST', '/api/submit');
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ message: submissionMessages.alreadySubmitted });
      const late = await call(cookie, 'PUT', '/api/answer', { signature: 'Someone Else' });
      expect(late.statusCode).toBe(409);
      expect(late.json()).toEqual({ message: answerMessages.frozen });
      expect((await call(cookie, 'GET', '/api/profile')).json().answer.signature).toBe('Jordan Rivera');
      expect((await call(cookie, 'PUT', '/api/add-another', { button_id: 'add_sibling', num_components: 2 })).statusCode).toBe(409);
      expect((await call(cookie, 'PUT', '/api/tabs', { tab_id: 'additional_info_tabs', chosen_tab: 'upload' })).statusCode).toBe(409);
      // The client's status post after a successful submit is accepted.
      expect((await call(cookie, 'POST', '/api/web-status', { web_status: 'submitted' })).statusCode).toBe(200);
    });

    it('refuses every change of an application the office cancelled at my request (the other questions, tabs, files, the submit), saying why, until it is reinstated (issue 51)', async () => {
      const username = 'cancelled-everything@example.com';
      const cookie = await signedInCookie(t, username);
      await call(cookie, 'PUT', '/api/answer', completeApplication);
      const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
      const cancel = (at: Date | null) => t.database.db.update(applications).set({ withdrawnAt: at, withdrawnReason: at && 'Asked to.', withdrawnBy: at && 'decider@example.edu' }).where(eq(applications.userId, user!.id));
      await cancel(new Date());
      const changes = [
        () => call(cookie, 'PUT', '/api/add-another', { button_id: 'add_sibling', num_components: 2 }),
        () => call(cookie, 'PUT', '/api/tabs', { tab_id: 'additional_info_tabs', chosen_tab: 'upload' }),
        () => call(cookie, 'POST', '/api/presigned-url', { answer_key: 'additional_info_doc', content_type: 'application/pdf' }),
        () => call(cookie, 'POST', '/api/submit'),
      ];
      for (const change of changes) expect((await change()).json()).toEqual({ message: answerMessages.cancelled });
      expect((await call(cookie, 'GET', '/api/profile')).json().web_status).not.toContainEqual(expect.objectContaining({ web_status: 'submitted' }));
      await cancel(null);
      for (const change of changes) expect((await change()).statusCode).toBe(200);
    });

    it('makes a failed PDF copy again on request, only once submitted, and leaves a good one alone', async () => {
      const username = 'pdf-retry@example.com';
      const cookie = await signedInCookie(t, username);
      const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
      const early = await call(cookie, 'POST', '/api/pdf');
      expect(early.statusCode).toBe(409);
      expect(early.json()).toEqual({ message: 'A PDF copy is made once your application is submitted.' });

      await call(cookie, 'PUT', '/api/answer', completeApplication);
      expect((await call(cookie, 'POST', '/api/submit')).statusCode).toBe(200);
      const mark = (status: 'FAILED' | 'COMPLETED') =>
        t.database.db.update(pdfCopies).set({ status, message: status === 'FAILED' ? 'x' : null }).where(eq(pdfCopies.userId, user!.id));
      await mark('FAILED');
      const retried = await call(cookie, 'POST', '/api/pdf');
      expect(retried.statusCode).toBe(202);
      expect(['UNPROCESSED', 'IN_PROGRESS']).toContain(retried.json().status);

      // Stuck (its process died long ago): made again too.
      const longAgo = new Date(Date.now() - 3_600_000);
      await t.database.db.update(pdfCopies).set({ status: 'IN_PROGRESS', updatedAt: longAgo }).where(eq(pdfCopies.userId, user!.id));
      expect((await call(cookie, 'POST', '/api/pdf')).statusCode).toBe(202);
      const [row] = await t.database.db.select().from(pdfCopies).where(eq(pdfCopies.userId, user!.id));
      expect(row!.updatedAt.getTime()).toBeGreaterThan(longAgo.getTime());

      await mark('COMPLETED');
      const left = await call(cookie, 'POST', '/api/pdf');
      expect(left.statusCode).toBe(202);
      expect(left.json()).toEqual({ status: 'COMPLETED', url: '/api/pdf/download' });
    });

    it('keeps add-another counts per button within the per-group maximum', async () => {
      const cookie = await signedInCookie(t);
      expect((await call(cookie, 'GET', '/api/add-another')).json()).toEqual({});
      expect((await call(cookie, 'PUT', '/api/add-another', { button_id: 'add_sibling', num_components: 2 })).statusCode).toBe(200);
      expect((await call(cookie, 'PUT', '/api/add-another', { button_id: 'add_high_school', num_components: 3 })).statusCode).toBe(200);
      const tooMany = await call(cookie, 'PUT', '/api/add-another', { button_id: 'add_high_school', num_components: 4 });
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json().message).toBe('You can add at most 3 of these.');
      expect((await call(cookie, 'PUT', '/api/add-another', { button_id: 'add_pets', num_components: 2 })).statusCode).toBe(400);
      expect((await call(cookie, 'PUT', '/api/add-another', { button_id: 'add_sibling', num_components: 11 })).statusCode).toBe(400);
      expect((await call(cookie, 'GET', '/api/add-another')).json()).toEqual({ add_sibling: 2, add_high_school: 3 });
    });

    it('keeps only the form\'s tab groups and their tabs: the stored map never grows past the form', async () => {
      const cookie = await signedInCookie(t);
      for (let i = 0; i < 120; i++) {
        expect((await call(cookie, 'PUT', '/api/tabs', { tab_id: `made_up_${i}`, chosen_tab: 'upload' })).statusCode).toBe(400);
      }
      const wrongTab = await call(cookie, 'PUT', '/api/tabs', { tab_id: 'additional_info_tabs', chosen_tab: 'mail' });
      expect(wrongTab.statusCode).toBe(400);
      expect(wrongTab.json().errors).toEqual({ chosen_tab: ['This group has no such tab.'] });
      expect((await call(cookie, 'GET', '/api/tabs')).json()).toEqual({});
    });

    it('keeps the chosen tab per tab group and records validation results', async () => {
      const cookie = await signedInCookie(t);
      expect((await call(cookie, 'PUT', '/api/tabs', { tab_id: 'additional_info_tabs', chosen_tab: 'upload' })).statusCode).toBe(200);
      expect((await call(cookie, 'PUT', '/api/tabs', { tab_id: 'additional_info_tabs', chosen_tab: 'write' })).statusCode).toBe(200);
      expect((await call(cookie, 'GET', '/api/tabs')).json()).toEqual({ additional_info_tabs: 'write' });
      expect((await call(cookie, 'POST', '/api/validations', { first_name: ['Legal First Name'] })).statusCode).toBe(200);
    });
  });
});

/** Moved here from the fault suite (server/faults.test.ts): no process needs killing to show it. */
describe('the PDF copy while the renderer is missing', () => {
  it('fails with a message, and is made on request once the renderer is back', async () => {
    const broken = await testApp({ env: { CHROMIUM_PATH: '/nonexistent/chromium' } });
    const cookie = await signedInCookie(broken);
    const read = async (app: TestApp) => (await app.app.inject({ method: 'GET', url: '/api/pdf', headers: { cookie } })).json() as { status: string; message?: string };
    try {
      expect((await broken.app.inject({ method: 'GET', url: '/healthz' })).json()).toMatchObject({ status: 'degraded', renderer: 'missing' });
      expect((await broken.app.inject({ method: 'PUT', url: '/api/answer', payload: completeApplication, headers: { cookie } })).statusCode).toBe(200);
      expect((await broken.app.inject({ method: 'POST', url: '/api/submit', headers: { cookie } })).statusCode).toBe(200);
      const failed = await until('the copy to fail', async () => ((await read(broken)).status === 'FAILED' ? await read(broken) : undefined), 60);
      expect(failed.message).toBeTruthy();
      await broken.app.close();

      // The renderer is back (the same data, the right CHROMIUM_PATH): asking again makes the copy.
      const fixed = await testApp({ database: broken.database, env: { DATA_DIR: broken.config.dataDir } });
      try {
        expect((await fixed.app.inject({ method: 'POST', url: '/api/pdf', headers: { cookie } })).statusCode).toBe(202);
        expect(await until('the copy to be made', async () => ((await read(fixed)).status === 'COMPLETED' ? 'COMPLETED' : undefined), 60)).toBe('COMPLETED');
      } finally {
        await fixed.close();
      }
    } finally {
      await broken.database.dispose();
    }
  }, 120_000);
});
