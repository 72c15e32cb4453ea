import type { ProxyOptions } from 'vite';

/**
 * Mock-only: Prism can send one example Set-Cookie header, but the client needs two cookies after
 * sign-in (the HttpOnly session cookie the contract's security scheme names, and the readable
 * `portal-idp.` marker it reads for "logged in"). This proxy hook adds both on a successful
 * /public/login and removes them on /api/logout, so `npm run dev:mock` walks through a session.
 */
export const mockProxyCookies: NonNullable<ProxyOptions['configure']> = (proxy) => {
  proxy.on('proxyRes', (proxyRes, req) => {
    const ok = (proxyRes.statusCode ?? 500) < 300;
    if (req.url?.startsWith('/public/login') && ok) {
      proxyRes.headers['set-cookie'] = [
        'portal_session=mock-session; Path=/; HttpOnly; SameSite=Lax',
        'portal-idp.user=applicant%40example.com; Path=/; SameSite=Lax',
      ];
    }
    if (req.url?.startsWith('/staff/public/login') && ok) {
      proxyRes.headers['set-cookie'] = ['staff_session=mock-staff-session; Path=/staff; HttpOnly; SameSite=Strict'];
    }
    if (req.url?.startsWith('/staff/api/logout') && ok) {
      proxyRes.headers['set-cookie'] = ['staff_session=; Path=/staff; Max-Age=0'];
    }
    if (req.url?.startsWith('/api/logout') && ok) {
      proxyRes.headers['set-cookie'] = [
        'portal_session=; Path=/; Max-Age=0',
        'portal-idp.user=; Path=/; Max-Age=0',
      ];
    }
  });
};
