import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { isLoopbackUrl } from './paths';
import { isServerCall, isStaffCall } from './paths';
import { HttpError } from './errors';


/** Requests a browser sends on its own when another site asks it to (form posts, navigations). */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()';

/**
 * What an answer to one of the server's own calls carries (JSON, a PDF, an empty answer): no page
 * is drawn from it, so it needs no more than these (OWASP's REST security headers): nothing may
 * run, frame or embed it, nor sniff it into another type, and no browser or proxy keeps it (a
 * handler may say otherwise with its own Cache-Control). Helmet's document headers (DNS prefetch,
 * download options, the XSS auditor's and the origin cluster's) are a page's only: set on every
 * call they were half of its headers and a tenth of a profile read's CPU (issue 33). The router's
 * own refusals, answered before any hook, carry them too.
 */
export const CALL_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; script-src 'self'; frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': PERMISSIONS_POLICY,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
} as const;

export const CROSS_SITE_MESSAGE = 'This request came from another site and was refused.';
export const UNSTORABLE_TEXT_MESSAGE = 'The request contains characters that cannot be stored (a NUL or a broken character).';

/** A NUL, or half of a UTF-16 surrogate pair (not well-formed): text no database column or JSON document can keep. */
const unstorable = (text: string) => text.includes('\u0000') || !text.isWellFormed();

/**
 * Whether JSON text may hold an unstorable string once parsed: only through an escape (`\u0000`, or
 * half of a surrogate pair), as the text itself came decoded from UTF-8 and JSON allows no raw
 * control character in a string. Read once over the text, where the walk below visits every key
 * and value of a save's 400 (issue 33).
 */
const mayHoldUnstorable = (json: string) => /\\u(?:0000|[dD][89a-fA-F])/.test(json);

/** Whether any string in a parsed body, query or parameter object (keys included) is unstorable. */
function holdsUnstorable(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return unstorable(value);
  if (depth > 20 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => holdsUnstorable(item, depth + 1));
  for (const key in value) {
    if (unstorable(key) || holdsUnstorable((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

/** The headers a Connect-style middleware sets, run once on a recorder (helmet's are the same for every answer). */
function headersSetBy(middleware: (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = { setHeader: (name: string, value: string | number | readonly string[]) => headers.push([name, String(value)]), removeHeader: () => {} };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Headers every answer carries, and the cross-site request check (issue 13 items 4 and 5):
 * - a strict Content Security Policy (scripts and styles from this origin only, no framing),
 *   nosniff, no referrer (reset and restore links carry tokens), COOP, a Permissions-Policy, and
 *   HSTS when the portal is served over https away from a loopback address;
 * - `Cache-Control: no-store` on every answer of the server's own calls (never on the client's files),
 *   whose answers carry the shorter `CALL_HEADERS` (no page is drawn from them);
 * - a state-changing call, and every call of the staff console, is refused with 403 when the
 *   browser says it came from another site or origin (Sec-Fetch-Site, else Origin). Clients that
 *   send neither (curl, the tests' API requests) are not browsers a page could steer.
 */
export function registerSecurity(app: FastifyInstance, publicUrl: string, inlineScripts: readonly string[] = []) {
  const site = new URL(publicUrl);
  const hsts = site.protocol === 'https:' && !isLoopbackUrl(publicUrl);
  // helmet's headers, taken once: the policy is the same for every answer. @fastify/helmet built
  // the middleware anew for every request (about 5% of a profile read), and helmet's own chain of
  // middlewares set them one by one on each (another 4%).
  const helmetHeaders = headersSetBy(helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // The build's holding script, in its pages, by its hash (clientPage.ts `inlineScriptSources`).
        scriptSrc: ["'self'", ...inlineScripts],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(hsts ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: hsts ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
  }));
  const pageHeaders: Record<string, string> = { ...Object.fromEntries(helmetHeaders.map(([name, value]) => [name.toLowerCase(), value])), 'permissions-policy': PERMISSIONS_POLICY };
  const callHeaders = hsts ? { ...CALL_HEADERS, 'strict-transport-security': pageHeaders['strict-transport-security']! } : CALL_HEADERS;

  // One hook, without a promise: it runs on every request. Set among the answer's own headers
  // (Node writes them without a second pass), so a page or call that sends its own (reply.header)
  // still overrides them.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isServerCall(request.url) ? callHeaders : pageHeaders);
    // The staff console's calls, reads too: a view, a download or an export is written to the
    // audit log, and an <img> or a prefetch on a page of the same site would carry the
    // SameSite=Strict cookie and write it in the staff member's name (issue 29, item 3).
    if (!STATE_CHANGING.has(request.method) && !isStaffCall(request.url)) return done();
    const fetchSite = request.headers['sec-fetch-site'];
    const origin = request.headers.origin;
    const crossSite = fetchSite !== undefined ? fetchSite !== 'same-origin' && fetchSite !== 'none' : origin !== undefined && origin !== site.origin;
    done(crossSite ? new HttpError(403, CROSS_SITE_MESSAGE) : undefined);
  });

  // NUL and lone surrogates are refused at the edge with 400, before any handler or database.
  // Callbacks, not async, as every hook each request passes (hookFor.ts).
  app.addHook('preValidation', (request, reply, done) => {
    const body = request.bodyText === null || mayHoldUnstorable(request.bodyText) ? request.body : undefined;
    done(holdsUnstorable(request.query) || holdsUnstorable(request.params) || holdsUnstorable(body) ? new HttpError(400, UNSTORABLE_TEXT_MESSAGE) : undefined);
  });
}

/** Query parameters that carry a bearer secret. */
const SECRET_PARAMETERS = ['token', 'service_token', 'id', 'code'];

/** A URL as it may be logged: every secret parameter's value replaced. */
export function redactUrl(url: string): string {
  const [pathPart, query] = url.split('?', 2);
  if (!query) return url;
  const params = new URLSearchParams(query);
  for (const name of SECRET_PARAMETERS) if (params.has(name)) params.set(name, 'REDACTED');
  return `${pathPart}?${params.toString()}`;
}
