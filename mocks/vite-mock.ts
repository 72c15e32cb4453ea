import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin, ProxyOptions } from 'vite';
import { loadContract, operationsOf } from '../server/http/contract.ts';
import { baseAnswer, preferHeader, scenarioNamed, scenarios, type MockScenario } from './scenarios.ts';

/** The cookie that carries the scenario a browser chose; the proxy reads it on every call. */
const SCENARIO_COOKIE = 'portal_mock';

const APPLICANT_COOKIES = ['portal_session=mock-session; Path=/; HttpOnly; SameSite=Lax', 'portal-idp.user=applicant%40example.com; Path=/; SameSite=Lax'];
const APPLICANT_SIGNED_OUT = ['portal_session=; Path=/; Max-Age=0', 'portal-idp.user=; Path=/; Max-Age=0'];
const STAFF_COOKIES = ['staff_session=mock-staff-session; Path=/staff; HttpOnly; SameSite=Strict'];
const STAFF_SIGNED_OUT = ['staff_session=; Path=/staff; Max-Age=0'];

/** The session cookies of who a scenario is for; the other kinds of session end. */
const sessionCookies = (who: MockScenario['who'] | undefined) => [
  ...(who === 'applicant' ? APPLICANT_COOKIES : APPLICANT_SIGNED_OUT),
  ...(who === 'staff' ? STAFF_COOKIES : STAFF_SIGNED_OUT),
];

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** The contract's operations as matchers of a method and a path (`{key}` matches one segment). */
let matchers: { method: string; pattern: RegExp; operationId: string }[] | undefined;
function operationOf(method: string, pathname: string): string | undefined {
  matchers ??= operationsOf(loadContract()).map(({ method, path, operationId }) => ({
    method,
    operationId,
    pattern: new RegExp(`^${path.split('/').map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}$`),
  }));
  return matchers.find((m) => m.method === method && m.pattern.test(pathname))?.operationId;
}

/**
 * Mock-only, on the dev server's proxy to Prism: each call gets the `Prefer` header of the
 * browser's scenario (or of the answers every scenario shares), and sign-in and log-out set and
 * clear the cookies a real server would (Prism sends one example Set-Cookie at most; the client
 * needs the HttpOnly session cookie and the readable `portal-idp.` marker).
 */
/** The Prism `Prefer` header of a call: its scenario's answer, or the one every scenario shares. */
function preferOf(req: IncomingMessage): string | undefined {
  const url = new URL(req.url ?? '/', 'http://mock');
  const operationId = operationOf(req.method ?? 'GET', url.pathname);
  if (!operationId) return undefined;
  const answer = scenarioNamed(cookieOf(req, SCENARIO_COOKIE))?.answers?.[operationId] ?? baseAnswer(operationId, url.searchParams);
  return answer ? preferHeader(answer) : undefined;
}

export const mockProxy: NonNullable<ProxyOptions['configure']> = (proxy) => {
  proxy.on('proxyReq', (proxyReq, req) => {
    const prefer = preferOf(req);
    if (prefer) proxyReq.setHeader('Prefer', prefer);
  });
  proxy.on('proxyRes', (proxyRes, req) => {
    const ok = (proxyRes.statusCode ?? 500) < 300;
    if (req.url?.startsWith('/public/login') && ok) proxyRes.headers['set-cookie'] = APPLICANT_COOKIES;
    if (req.url?.startsWith('/staff/public/login') && ok) proxyRes.headers['set-cookie'] = STAFF_COOKIES;
    if (req.url?.startsWith('/staff/api/logout') && ok) proxyRes.headers['set-cookie'] = STAFF_SIGNED_OUT;
    // As the real server does: a call of a session that ended clears its cookies with the 401.
    if (req.url?.startsWith('/api/') && (ok ? req.url.startsWith('/api/logout') : proxyRes.statusCode === 401)) proxyRes.headers['set-cookie'] = APPLICANT_SIGNED_OUT;
  });
};

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** `page` with `?mock=<name>` added to its query. */
export function scenarioAddress(scenario: MockScenario): string {
  const url = new URL(scenario.page, 'http://mock');
  url.searchParams.set('mock', scenario.name);
  return url.pathname + url.search;
}

function stepText(scenario: MockScenario): string {
  return (scenario.steps ?? [])
    .map((step) => ('fill' in step ? `type in #${step.fill}` : 'press' in step ? `press ${step.press}` : `choose a file for #${step.choose}`))
    .join(', then ');
}

/** The list of scenarios, at /__mock. */
function listPage(current: string | undefined): string {
  const items = scenarios
    .map((scenario) => {
      const steps = stepText(scenario);
      const mark = scenario.name === current ? ' <strong>(chosen)</strong>' : '';
      return `<li><a href="${escapeHtml(scenarioAddress(scenario))}">${escapeHtml(scenario.title)}</a>${mark}<br><code>?mock=${scenario.name}</code> on <code>${escapeHtml(scenario.page)}</code>${steps ? `; then ${escapeHtml(steps)}` : ''}</li>`;
    })
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Mock scenarios</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:48rem;padding:0 1rem;color:#1a1a1a}li{margin:.5rem 0}a{color:#1f4e8c}</style></head>
<body><main><h1>Mock scenarios</h1>
<p>Each link opens its page with Prism answering as the scenario says (mocks/scenarios.ts). Add <code>?mock=&lt;name&gt;</code> to any address to choose one; <a href="/about?mock=off">go back to Prism's defaults</a>.</p>
<ul>
${items}
</ul></main></body></html>`;
}

/**
 * Mock-only: the scenario switch of `npm run dev:mock`. `/__mock` lists the scenarios; `?mock=<name>`
 * on any page chooses one (its cookie, and the session cookies of who it is for) and opens the page
 * without the parameter; `?mock=off` forgets the choice.
 */
/**
 * Calls whose example the mock fits to what was sent (Prism answers every call with its example,
 * whatever it was sent): a recommender asked shows the name typed, a visitor's saved-answers link
 * points at this dev server (issue 48).
 */
const echoes: Record<string, (sent: Record<string, unknown>, answered: Record<string, unknown>, host: string) => Record<string, unknown>> = {
  'POST /api/recommenders': (sent, answered) => ({ ...answered, role: sent.role ?? answered.role, name: sent.name ?? answered.name, email: sent.email ?? answered.email }),
  'POST /public/tmp': (_sent, answered, host) => ({ ...answered, url: String(answered.url).replace(/^https?:\/\/[^/]+/, `http://${host}`) }),
};

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A call of `echoes`: sent on to Prism as the proxy would, its answer fitted to what was sent. */
async function answerEchoing(req: IncomingMessage, res: ServerResponse, target: string, echo: (typeof echoes)[string]) {
  const sent = await bodyOf(req);
  const prefer = preferOf(req);
  const answered = await fetch(target + (req.url ?? '/'), {
    method: req.method,
    headers: { 'content-type': 'application/json', accept: 'application/json', cookie: req.headers.cookie ?? '', ...(prefer ? { prefer } : {}) },
    body: sent,
  });
  let body = await answered.text();
  if (answered.ok) {
    try {
      body = JSON.stringify(echo(JSON.parse(sent || '{}') as Record<string, unknown>, JSON.parse(body) as Record<string, unknown>, req.headers.host ?? '127.0.0.1'));
    } catch {
      // not JSON both ways: answered as Prism answered
    }
  }
  res.statusCode = answered.status;
  res.setHeader('content-type', answered.headers.get('content-type') ?? 'application/json');
  res.end(body);
}

/** The cookies of a scenario's page behaviour (mock-only, read by src/devMock.ts): its idle clock, its script error. */
const behaviourCookies = (scenario: MockScenario | undefined) => [
  scenario?.idleSeconds ? `portal_mock_idle=${scenario.idleSeconds}; Path=/; SameSite=Lax` : 'portal_mock_idle=; Path=/; Max-Age=0',
  scenario?.scriptError ? 'portal_mock_fail=1; Path=/; SameSite=Lax' : 'portal_mock_fail=; Path=/; Max-Age=0',
];

export function mockScenarioSwitch(target: string): Plugin {
  return {
    name: 'portal-mock-scenarios',
    configureServer(server) {
      server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
        const url = new URL(req.url ?? '/', 'http://mock');
        const echo = echoes[`${req.method} ${url.pathname}`];
        if (echo) {
          answerEchoing(req, res, target, echo).catch(next);
          return;
        }
        if (url.pathname === '/__mock') {
          res.setHeader('content-type', 'text/html; charset=utf-8');
          res.end(listPage(cookieOf(req, SCENARIO_COOKIE)));
          return;
        }
        const name = url.searchParams.get('mock');
        if (name === null) return next();
        const scenario = scenarioNamed(name);
        url.searchParams.delete('mock');
        res.statusCode = 302;
        res.setHeader('location', url.pathname + url.search);
        res.setHeader('set-cookie', [
          scenario ? `${SCENARIO_COOKIE}=${scenario.name}; Path=/; SameSite=Lax` : `${SCENARIO_COOKIE}=; Path=/; Max-Age=0`,
          // `?mock=off` keeps whoever is signed in; a scenario signs in whom it is for.
          ...(scenario ? sessionCookies(scenario.who) : []),
          ...behaviourCookies(scenario),
        ]);
        res.end();
      });
    },
  };
}
