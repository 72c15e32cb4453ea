import type { components } from '../../../../generated/api';
import { api, dataOf } from '../../../lib/api/client';

/** POST /public/forgot-password: mails a reset link when the account exists (the answer never says). */
export const forgotPassword = (body: components['schemas']['UsernameRequest']) => dataOf(api.POST('/public/forgot-password', { body }));
