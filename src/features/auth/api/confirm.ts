import type { components } from '../../../../generated/api';
import { api, dataOf } from '../../../lib/api/client';

/** POST /public/confirm: confirms the account with the e-mailed 6-digit code. */
export const confirm = (body: components['schemas']['ConfirmRequest']) => dataOf(api.POST('/public/confirm', { body }));
