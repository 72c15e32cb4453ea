import type { components } from '../../../../../generated/api';
import { $api, api, dataOf } from '../../../../lib/api/client';

export type StaffMe = components['schemas']['StaffMe'];

/** GET /staff/api/me: who is signed in to the console (401 when nobody). */
export const staffMeQuery = $api.queryOptions('get', '/staff/api/me', {}, { retry: false, staleTime: 60_000 });

/** POST /staff/public/login: password and second factor. */
export const staffLogin = (body: components['schemas']['StaffLoginRequest']) => dataOf(api.POST('/staff/public/login', { body }));

/** POST /staff/api/logout. */
export const staffLogout = () => dataOf(api.POST('/staff/api/logout'));

/** POST /staff/api/keep-alive: 'Stay signed in'. */
export const staffKeepAlive = () => dataOf(api.POST('/staff/api/keep-alive'));

/** GET /staff/public/setup: what a set-up link opens. */
export const staffSetupQuery = (token: string) => $api.queryOptions('get', '/staff/public/setup', { params: { query: { token } } }, { retry: false });

/** POST /staff/public/setup: password and the first code; answers the recovery codes. */
export const finishStaffSetup = (body: components['schemas']['StaffSetupRequest']) => dataOf(api.POST('/staff/public/setup', { body }));

/** GET /staff/public/oidc: whether the institution's sign-in is offered, and its words. */
export const staffOidcQuery = $api.queryOptions('get', '/staff/public/oidc', {}, { retry: false, staleTime: Infinity });

/** Where the institution's sign-in starts: a navigation, not a call (the provider's page follows). */
export const STAFF_OIDC_START = '/oidc/staff/start';
