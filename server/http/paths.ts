/** The staff console's calls (not its pages). */
const staffPrefixes = ['/staff/api/', '/staff/public/'];
/** Paths the server answers itself; any other GET is a client route and gets index.html. */
const serverPrefixes = ['/api/', '/public/', '/lookup/', '/service/', '/upload', '/dev/', '/healthz', '/machine/', '/oidc/', ...staffPrefixes];

/** Whether a request URL (query and all) is one of the server's own calls rather than a page of the client. */
export const isServerCall = (url: string): boolean => {
  const path = url.split('?')[0] ?? '/';
  return serverPrefixes.some((prefix) => path.startsWith(prefix));
};

/** Whether a request URL is a call of the staff console: its reads are audited, so they come from its own pages only. */
export const isStaffCall = (url: string): boolean => staffPrefixes.some((prefix) => url.startsWith(prefix));

/** Whether a URL points at this machine (where the portal may run for a developer only). */
export const isLoopbackUrl = (url: string): boolean => ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);

/** Cookies are Secure everywhere except a local address served over plain http (the staff cookie too). */
export const secureCookies = (publicUrl: string) => new URL(publicUrl).protocol === 'https:' || !isLoopbackUrl(publicUrl);

/**
 * A route's path parameter in a hook that serves many routes (whose params Fastify cannot type):
 * the text when the route has it, else undefined.
 */
export function routeParam(request: { params: unknown }, name: string): string | undefined {
  const value = request.params !== null && typeof request.params === 'object' ? (request.params as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}
