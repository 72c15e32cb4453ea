import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, inArray } from 'drizzle-orm';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, staffUsers } from '../infra/schema';
import { cookieHeader, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';

const PUBLIC_URL = 'http://127.0.0.1:3999';
/** The people the institution's provider knows, and what it says of them. */
const PEOPLE: Record<string, { email: string; email_verified?: boolean; groups: string[] }> = {
  dean: { email: 'Dean@Northfield.edu', email_verified: true, groups: ['staff', 'admissions-deans'] },
  reader: { email: 'reader@northfield.edu', email_verified: true, groups: ['admissions-readers'] },
  outsider: { email: 'someone@elsewhere.example', email_verified: true, groups: ['admissions-deans'] },
  nobody: { email: 'porter@northfield.edu', email_verified: true, groups: ['facilities'] },
  // A local administrator (password and second factor) whom the provider also knows, as a reader.
  head: { email: 'head@northfield.edu', email_verified: true, groups: ['admissions-readers'] },
  chief: { email: 'chief@northfield.edu', email_verified: true, groups: ['admissions-chiefs'] },
  // A provider that leaves `email_verified` out (one that lets people edit their address might).
  unmarked: { email: 'unmarked@northfield.edu', groups: ['admissions-readers'] },
};

// A real OpenID Connect provider (oidc-provider) on 127.0.0.1, the portal's client against it
// through the whole authorization code flow with PKCE; only the person's "login" at the provider is
// answered by the test (its interaction), as the provider's own login page would.
describe('staff sign-in with the institution’s identity (issue 32)', () => {
  let t: TestApp;
  let provider: Provider;
  let server: Server;
  let issuer = '';
  let admin = '';
  /** Who signs in at the provider next. */
  let person = 'dean';
  beforeAll(async () => {
    server = createServer();
    // The provider keeps its connections for the whole file: with Node's 5 s, a connection the
    // client pooled could be closed by the provider as the next test's discovery reused it, on a
    // busy machine (a 503 for the sign-in's start, once under a full run).
    server.keepAliveTimeout = 10 * 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    provider = new Provider(issuer, {
      clients: [{ client_id: 'portal', client_secret: 'the-portal-client-secret', redirect_uris: [`${PUBLIC_URL}/oidc/staff/callback`], grant_types: ['authorization_code'], response_types: ['code'] }],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['groups'] },
      findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id, ...PEOPLE[id] }) }),
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      pkce: { required: () => true },
      cookies: { keys: ['a-cookie-key-of-the-test-provider'] },
    });
    const callback = provider.callback();
    server.on('request', (req, res) => {
      if (!req.url?.startsWith('/interaction/')) return callback(req, res);
      // The person signs in and consents: what the provider's own pages would record.
      void (async () => {
        const details = await provider.interactionDetails(req, res);
        const grant = new provider.Grant({ accountId: person, clientId: String(details.params.client_id) });
        grant.addOIDCScope('openid email profile');
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId: person }, consent: { grantId } }, { mergeWithLastSubmission: false });
      })();
    });
    t = await testApp({ env: { PUBLIC_URL, OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'portal', OIDC_CLIENT_SECRET: 'the-portal-client-secret', OIDC_LABEL: 'Sign in with your Northfield account' } });
    admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** The browser's part: start at the portal, follow the provider's redirects with its cookies, come back with the code. */
  async function signIn(who: string): Promise<{ location: string; cookie: string }> {
    person = who;
    const start = await t.app.inject({ method: 'GET', url: '/oidc/staff/start' });
    expect(start.statusCode, start.body).toBe(302);
    const flowCookie = cookieHeader(start);
    let at = String(start.headers.location);
    expect(at.startsWith(`${issuer}/auth?`)).toBe(true);
    const jar = new Map<string, string>();
    for (let hop = 0; hop < 10 && at.startsWith(issuer); hop++) {
      const answer = await fetch(at, { redirect: 'manual', headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') } });
      for (const set of answer.headers.getSetCookie()) {
        const [pair] = set.split(';');
        const [name, ...value] = pair!.split('=');
        jar.set(name!, value.join('='));
      }
      at = new URL(answer.headers.get('location') ?? '', at).href;
    }
    expect(at.startsWith(`${PUBLIC_URL}/oidc/staff/callback?`)).toBe(true);
    const back = await t.app.inject({ method: 'GET', url: at.slice(PUBLIC_URL.length), headers: { cookie: flowCookie } });
    expect(back.statusCode, back.body).toBe(302);
    return { location: String(back.headers.location), cookie: back.headers['set-cookie'] ? cookieHeader(back) : '' };
  }
  const setRules = (body: object) => t.app.inject({ method: 'PUT', url: '/staff/api/sign-in-rules', payload: body, headers: { cookie: admin } });

  it('says on the sign-in page that it is there, and with which words', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/staff/public/oidc' })).json()).toEqual({ enabled: true, label: 'Sign in with your Northfield account' });
  });

  it('lets nobody in before an administrator sets who may come', async () => {
    expect((await signIn('dean')).location).toBe('/staff/login?sign_in=refused');
  });

  it('signs a member in with the role their claims map to, the role following the claims at each sign-in; refuses a domain not let in and claims with no role; all audited', async () => {
    const saved = await setRules({ domains: ['@Northfield.edu'], role_claim: 'groups', mappings: [{ value: 'admissions-readers', role: 'reader' }, { value: 'admissions-deans', role: 'decider' }] });
    expect(saved.json()).toMatchObject({ domains: ['northfield.edu'], role_claim: 'groups' });

    const dean = await signIn('dean');
    expect(dean.location).toBe('/staff');
    const me = await t.app.inject({ method: 'GET', url: '/staff/api/me', headers: { cookie: dean.cookie } });
    expect(me.json()).toMatchObject({ email: 'dean@northfield.edu', role: 'decider' });

    const reader = await signIn('reader');
    expect((await t.app.inject({ method: 'GET', url: '/staff/api/me', headers: { cookie: reader.cookie } })).json()).toMatchObject({ email: 'reader@northfield.edu', role: 'reader' });
    // The institution moves the reader to the deans: their next sign-in carries it.
    PEOPLE.reader!.groups = ['admissions-deans'];
    await signIn('reader');
    expect((await t.database.db.select({ role: staffUsers.role }).from(staffUsers).where(eq(staffUsers.email, 'reader@northfield.edu')))[0]!.role).toBe('decider');

    expect((await signIn('outsider')).location).toBe('/staff/login?sign_in=refused');
    expect((await signIn('nobody')).location).toBe('/staff/login?sign_in=refused');
    expect(await t.database.db.select().from(staffUsers).where(eq(staffUsers.email, 'someone@elsewhere.example'))).toEqual([]);

    const entries = (await t.database.db.select().from(auditLog)).filter((entry) => (entry.detail as { factor?: string } | null)?.factor === 'oidc');
    expect(entries.map((entry) => [entry.action, entry.staffEmail, (entry.detail as { reason?: string; role?: string }).reason ?? (entry.detail as { role?: string }).role])).toEqual([
      ['sign_in_refused', 'dean@northfield.edu', 'domain not let in'],
      ['sign_in', 'dean@northfield.edu', 'decider'],
      ['sign_in', 'reader@northfield.edu', 'reader'],
      ['sign_in', 'reader@northfield.edu', 'decider'],
      ['sign_in_refused', 'someone@elsewhere.example', 'domain not let in'],
      ['sign_in_refused', 'porter@northfield.edu', 'no role for the claims'],
    ]);
  });

  it('refuses a callback without its flow, with a forged state, or carrying the provider’s error', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/oidc/staff/callback?code=x&state=y' })).headers.location).toBe('/staff/login?sign_in=failed');
    const start = await t.app.inject({ method: 'GET', url: '/oidc/staff/start' });
    const forged = await t.app.inject({ method: 'GET', url: '/oidc/staff/callback?code=x&state=forged', headers: { cookie: cookieHeader(start) } });
    expect(forged.headers.location).toBe('/staff/login?sign_in=failed');
    const denied = await t.app.inject({ method: 'GET', url: '/oidc/staff/callback?error=access_denied', headers: { cookie: cookieHeader(start) } });
    expect(denied.headers.location).toBe('/staff/login?sign_in=failed');
  });
  it('never takes over a local account, keeps the office’s last administrator, brings back no removed member (an invitation does), and wants a verified e-mail (issue 49, item 7)', async () => {
    await setRules({ domains: ['northfield.edu'], role_claim: 'groups', mappings: [{ value: 'admissions-readers', role: 'reader' }, { value: 'admissions-deans', role: 'decider' }, { value: 'admissions-chiefs', role: 'admin' }] });
    const roleOf = async (email: string) => (await t.database.db.select({ role: staffUsers.role }).from(staffUsers).where(eq(staffUsers.email, email)))[0]?.role;
    const lastRefusal = async () => ((await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'sign_in_refused'))).at(-1)!.detail as { reason: string }).reason;

    // The local administrator signing in through the provider as a member of the readers' group.
    await setUpStaff(t, 'admin', 'head@northfield.edu');
    expect((await signIn('head')).location).toBe('/staff/login?sign_in=refused');
    expect([await lastRefusal(), await roleOf('head@northfield.edu')]).toEqual(['a local account', 'admin']);

    // A provider-made administrator, the office's only one, whose group changes: keeps the role, is refused.
    expect((await signIn('chief')).location).toBe('/staff');
    const others = (await t.database.db.select().from(staffUsers).where(eq(staffUsers.role, 'admin'))).filter((member) => member.email !== 'chief@northfield.edu');
    await t.database.db.update(staffUsers).set({ role: 'decider' }).where(inArray(staffUsers.id, others.map((member) => member.id)));
    try {
      PEOPLE.chief!.groups = ['admissions-readers'];
      expect((await signIn('chief')).location).toBe('/staff/login?sign_in=refused');
      expect([await lastRefusal(), await roleOf('chief@northfield.edu')]).toEqual(['the last administrator', 'admin']);
    } finally {
      await t.database.db.update(staffUsers).set({ role: 'admin' }).where(inArray(staffUsers.id, others.map((member) => member.id)));
    }

    // Removed by an administrator: the provider does not bring them back; an invitation does.
    const [reader] = await t.database.db.select().from(staffUsers).where(eq(staffUsers.email, 'reader@northfield.edu'));
    expect((await t.app.inject({ method: 'DELETE', url: `/staff/api/staff/${reader!.id}`, headers: { cookie: admin } })).statusCode).toBe(200);
    expect((await signIn('reader')).location).toBe('/staff/login?sign_in=refused');
    expect([await lastRefusal(), await roleOf('reader@northfield.edu')]).toEqual(['removed by an administrator', undefined]);
    const invited = await t.app.inject({ method: 'POST', url: '/staff/api/staff', payload: { email: 'reader@northfield.edu', role: 'reader' }, headers: { cookie: admin } });
    expect(invited.statusCode, invited.body).toBe(201);
    expect((await signIn('reader')).location).toBe('/staff');

    // No `email_verified` at all: refused unless the operator says the provider never lets addresses be edited.
    expect((await signIn('unmarked')).location).toBe('/staff/login?sign_in=refused');
    expect(await lastRefusal()).toBe('no verified e-mail');
  });

  it('keeps the flow in a __Host- cookie over HTTPS, which no other host of the domain can plant (issue 49, item 7)', async () => {
    const secure = await testApp({ env: { PUBLIC_URL: 'https://portal.northfield.edu', OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'portal', OIDC_CLIENT_SECRET: 'the-portal-client-secret' } });
    try {
      const start = await secure.app.inject({ method: 'GET', url: '/oidc/staff/start' });
      expect(start.statusCode).toBe(302);
      expect(String(start.headers['set-cookie'])).toMatch(/^__Host-staff_oidc=[^;]+; Max-Age=600; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
      // A flow cookie under the old name is not read.
      const planted = await secure.app.inject({ method: 'GET', url: '/oidc/staff/callback?code=x&state=y', headers: { cookie: String(start.headers['set-cookie']).split(';')[0]!.replace('__Host-', '') } });
      expect(planted.headers.location).toBe('/staff/login?sign_in=failed');
    } finally {
      await secure.close();
    }
  });
});
