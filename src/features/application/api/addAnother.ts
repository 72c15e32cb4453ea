import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, $api, dataOf } from '../../../lib/api/client';

/** GET /api/add-another: how many instances each repeated group shows. */
export const addAnotherQuery = $api.queryOptions('get', '/api/add-another');

/** PUT /api/add-another: the count kept is the one read from then on. */
export function usePutAddAnother() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ button_id, num_components }: { button_id: string; num_components: number }) => dataOf(api.PUT('/api/add-another', { body: { button_id, num_components } })),
    onSuccess: (_answer, { button_id, num_components }) => {
      queryClient.setQueryData(addAnotherQuery.queryKey, (counts: Record<string, number> | undefined) => ({ ...(counts ?? {}), [button_id]: num_components }));
    },
  });
}
