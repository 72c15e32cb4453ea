import type { components } from '../../../../generated/api';
import { api, dataOf } from '../../../lib/api/client';

/** POST /api/validations: the client's non-empty validation result. */
export const postValidations = (body: components['schemas']['FieldErrors']) => dataOf(api.POST('/api/validations', { body }));
