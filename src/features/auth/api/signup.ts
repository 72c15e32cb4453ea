import type { components } from '../../../../generated/api';
import { api, dataOf } from '../../../lib/api/client';

/** POST /public/signup: creates the account (with any answers typed before) and mails a code. */
export const signup = (body: components['schemas']['SignupRequest']) => dataOf(api.POST('/public/signup', { body }));
