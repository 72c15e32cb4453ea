import type { components } from '../../../../generated/api';
import { api, dataOf } from '../../../lib/api/client';

/** POST /public/login: signs in; the server sets the session and the identity marker cookie. */
export const login = (body: components['schemas']['LoginRequest']) => dataOf(api.POST('/public/login', { body }));
