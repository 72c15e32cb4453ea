import type { components } from '../../../../generated/api';
import { api, dataOf } from '../../../lib/api/client';

/** POST /public/resend-confirm: mails a new code to an account waiting for confirmation. */
export const resendConfirm = (body: components['schemas']['UsernameRequest']) => dataOf(api.POST('/public/resend-confirm', { body }));
