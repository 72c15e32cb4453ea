import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, dataOf } from '../../../lib/api/client';

/**
 * POST /api/submit: the server validates the stored answers again and submits them. The copy and
 * the status the completion page reads are read again.
 */
export function useSubmitApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => dataOf(api.POST('/api/submit')),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: ['get', '/api/pdf'] }), queryClient.invalidateQueries({ queryKey: ['get', '/api/decision'] })]),
  });
}
