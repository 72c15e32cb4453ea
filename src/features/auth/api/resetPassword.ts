import type { components } from '../../../../generated/api';
import { api, dataOf } from '../../../lib/api/client';

/** POST /public/reset-password: sets a new password with the link's id. */
export const resetPassword = (body: components['schemas']['ResetPasswordRequest']) => dataOf(api.POST('/public/reset-password', { body }));
