/**
 * Staff sign-in with the institution's identity provider (issue 32): OpenID Connect's
 * authorization code flow with PKCE through `openid-client`. The provider says who the person is;
 * the administrator's rules say whether their e-mail domain is let in and which role their claims
 * give. The password and TOTP sign-in stays for institutions without a provider.
 */
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { oidcMessages, STAFF_ROLES, type StaffRole } from '../../domain/staff';
import type { Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import type { Config } from '../infra/config';
import { hmac, sameHash } from '../infra/crypto';
import type { Db } from '../infra/db';
import { staffRemovals, staffSignInRules, staffUsers } from '../infra/schema';
import { recordAudit } from '../office/audit';
import { staffCall, startStaffSession } from '../office/sessions';
import { HttpError } from '../http/errors';

/**
 * The state, nonce and PKCE verifier between the two steps: a signed cookie for ten minutes. Over
 * HTTPS it is a `__Host-` cookie (Secure, path /, no Domain), so no other host of the institution's
 * domain can plant one in the browser (a planted flow was a login CSRF: issue 49, item 7).
 */
const FLOW_PATH = '/oidc/staff';
const FLOW_SECONDS = 600;
const CALLBACK_PATH = `${FLOW_PATH}/callback`;

type Rules = typeof staffSignInRules.$inferSelect;

/** The role the claims give under the rules, or null: the first mapping whose value the claim holds. */
function roleFromClaims(rules: Pick<Rules, 'roleClaim' | 'roleMappings'>, claims: Record<string, unknown>): StaffRole | null {
  const held = claims[rules.roleClaim];
  const values = Array.isArray(held) ? held.map(String) : typeof held === 'string' ? [held] : [];
  return rules.roleMappings.find((mapping) => values.includes(mapping.value))?.role ?? null;
}

function rulesOf(row: Rules | undefined) {
  return { domains: row?.domains ?? [], role_claim: row?.roleClaim ?? '', mappings: row?.roleMappings ?? [], updated_by: row?.updatedByEmail ?? null, updated_at: row?.updatedAt.toISOString() ?? null };
}

export function oidcHandlers(deps: { db: Db; config: Pick<Config, 'oidc' | 'publicUrl' | 'sessionSecret'> }) {
  const { db, config } = deps;
  const oidc = config.oidc;
  const redirectUri = `${config.publicUrl}${CALLBACK_PATH}`;
  const secure = config.publicUrl.startsWith('https://');
  const flowCookie = secure ? { name: '__Host-staff_oidc', path: '/' } : { name: 'staff_oidc', path: FLOW_PATH };
  let discovered: Promise<client.Configuration> | null = null;
  // Discovered once, again after a failure (the provider was down at the first sign-in).
  const configuration = () => {
    discovered ??= client
      .discovery(new URL(oidc!.issuer), oidc!.clientId, oidc!.clientSecret, undefined, oidc!.issuer.startsWith('http://') ? { execute: [client.allowInsecureRequests] } : undefined)
      .catch((error: unknown) => {
        discovered = null;
        throw error;
      });
    return discovered;
  };
  const seal = (value: string) => `${Buffer.from(value).toString('base64url')}.${hmac(config.sessionSecret, `oidc:${value}`)}`;
  const unseal = (sealed: string | undefined): { state: string; nonce: string; verifier: string } | null => {
    const [body, mac] = (sealed ?? '').split('.');
    if (!body || !mac) return null;
    const value = Buffer.from(body, 'base64url').toString();
    if (!sameHash(mac, hmac(config.sessionSecret, `oidc:${value}`))) return null;
    return JSON.parse(value) as { state: string; nonce: string; verifier: string };
  };
  const back = (reply: FastifyReply, outcome: 'refused' | 'failed') => reply.clearCookie(flowCookie.name, { path: flowCookie.path }).redirect(`/staff/login?sign_in=${outcome}`, 302);

  /**
   * The member a provider sign-in is, made or taken up (an invitation not yet set up) under the
   * admins' lock; or why not: a local account is never taken over, a removed member does not come
   * back (an invitation brings them), and the office's last administrator keeps the role.
   */
  async function memberFromProvider(email: string, role: StaffRole): Promise<{ id: string } | { refused: string }> {
    return db.transaction(async (tx) => {
      const admins = await tx.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.role, 'admin')).for('update');
      const [existing] = await tx.select().from(staffUsers).where(eq(staffUsers.email, email)).for('update');
      if (!existing) {
        if ((await tx.select().from(staffRemovals).where(eq(staffRemovals.email, email))).length) return { refused: 'removed by an administrator' };
        const [made] = await tx.insert(staffUsers).values({ email, role, totpSecret: '', activatedAt: clock.now(), viaProvider: true }).returning({ id: staffUsers.id });
        return { id: made!.id };
      }
      if (existing.activatedAt && !existing.viaProvider) return { refused: 'a local account' };
      if (existing.role === 'admin' && role !== 'admin' && admins.length === 1 && admins[0]!.id === existing.id) return { refused: 'the last administrator' };
      // The provider's claims decide the role at each sign-in; an invitation not yet set up is taken up by it.
      await tx.update(staffUsers).set({ role, viaProvider: true, activatedAt: existing.activatedAt ?? clock.now() }).where(eq(staffUsers.id, existing.id));
      return { id: existing.id };
    });
  }

  async function refuse(request: FastifyRequest, reply: FastifyReply, email: string, reason: string) {
    await recordAudit(db, { staff: { id: null, email: email.slice(0, 254) || '(unknown)' }, action: 'sign_in_refused', detail: { factor: 'oidc', reason }, ip: request.ip });
    return back(reply, 'refused');
  }

  return {
    staffOidcInfo: async (_request, reply) => reply.code(200).send({ enabled: oidc !== null, label: oidc?.label ?? null }),

    staffOidcStart: async (_request, reply) => {
      if (!oidc) throw new HttpError(404, 'Signing in with the institution is not set up here.');
      const verifier = client.randomPKCECodeVerifier();
      const flow = { state: client.randomState(), nonce: client.randomNonce(), verifier };
      const url = client.buildAuthorizationUrl(await configuration(), {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      });
      // Lax: the provider's redirect back is a navigation from another site, which Strict would leave without it.
      reply.setCookie(flowCookie.name, seal(JSON.stringify(flow)), { path: flowCookie.path, httpOnly: true, sameSite: 'lax', secure, maxAge: FLOW_SECONDS });
      return reply.redirect(url.href, 302);
    },

    staffOidcCallback: async (request, reply) => {
      if (!oidc) throw new HttpError(404, 'Signing in with the institution is not set up here.');
      const flow = unseal(request.cookies[flowCookie.name]);
      if (!flow || request.query.error) return back(reply, 'failed');
      let claims: Record<string, unknown>;
      try {
        const settings = await configuration();
        const tokens = await client.authorizationCodeGrant(settings, new URL(`${config.publicUrl}${request.url}`), { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true });
        const fromToken = tokens.claims()!;
        // Userinfo as well: many providers keep the e-mail and groups out of the ID token.
        const userinfo = await client.fetchUserInfo(settings, tokens.access_token, fromToken.sub);
        claims = { ...fromToken, ...userinfo };
      } catch (error) {
        request.log.warn({ err: error }, 'staff OpenID Connect sign-in failed');
        return back(reply, 'failed');
      }
      const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
      const [rules] = await db.select().from(staffSignInRules);
      // Strict unless the operator says the provider never lets users edit their address: an address not marked verified could be anyone's.
      if (!email || !(claims.email_verified === true || (claims.email_verified === undefined && oidc.trustUnverifiedEmail))) return refuse(request, reply, email, 'no verified e-mail');
      if (!rules?.domains.includes(email.split('@')[1] ?? '')) return refuse(request, reply, email, 'domain not let in');
      const role = roleFromClaims(rules, claims);
      if (!role) return refuse(request, reply, email, 'no role for the claims');
      const member = await memberFromProvider(email, role);
      if ('refused' in member) return refuse(request, reply, email, member.refused);
      await startStaffSession(db, reply, member.id, config.publicUrl);
      await recordAudit(db, { staff: { id: member.id, email }, action: 'sign_in', detail: { factor: 'oidc', role }, ip: request.ip });
      return reply.clearCookie(flowCookie.name, { path: flowCookie.path }).redirect('/staff', 302);
    },

    getSignInRules: staffCall<'getSignInRules'>('admin', async (_request, reply) => {
      const [row] = await db.select().from(staffSignInRules);
      return reply.code(200).send(rulesOf(row));
    }),

    setSignInRules: staffCall<'setSignInRules'>('admin', async (request, reply, staff) => {
      const domains = request.body.domains.map((domain) => domain.trim().toLowerCase().replace(/^@/, '')).filter(Boolean);
      if (domains.some((domain) => !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain))) throw new HttpError(400, oidcMessages.domainInvalid, { errors: { domains: [oidcMessages.domainInvalid] } });
      const values = { domains, roleClaim: request.body.role_claim.trim(), roleMappings: request.body.mappings.filter((mapping) => STAFF_ROLES.includes(mapping.role)), updatedByEmail: staff.email, updatedAt: clock.now() };
      const [row] = await db.transaction(async (tx) => {
        const saved = await tx.insert(staffSignInRules).values({ id: 1, ...values }).onConflictDoUpdate({ target: staffSignInRules.id, set: values }).returning();
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'sign_in_rules_change', detail: { domains }, ip: request.ip });
        return saved;
      });
      return reply.code(200).send(rulesOf(row));
    }),
  } satisfies Handlers;
}
