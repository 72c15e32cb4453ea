import { useMutation } from '@tanstack/react-query';
import type { components } from '../../../../generated/api';
import { api, dataOf } from '../../../lib/api/client';

/** POST /api/validations: the client's non-empty validation result (read by the office, not by the page). */
export const usePostValidations = () =>
  useMutation({ mutationFn: (body: components['schemas']['FieldErrors']) => dataOf(api.POST('/api/validations', { body })) });
