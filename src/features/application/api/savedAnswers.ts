import type { components } from '../../../../generated/api';
import { api, dataOf } from '../../../lib/api/client';

/** POST /public/tmp: a visitor's answers kept for 30 days under a private link. */
export const saveVisitorAnswers = (body: components['schemas']['SaveAnonymousRequest']) => dataOf(api.POST('/public/tmp', { body }));

/** GET /public/tmp: the answers a private link keeps. */
export const restoreVisitorAnswers = (token: string) => dataOf(api.GET('/public/tmp', { params: { query: { token } } }));
