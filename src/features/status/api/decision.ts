import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../generated/api';
import { $api, api, dataOf } from '../../../lib/api/client';

/** GET /api/decision: where the application stands, and the decision once released. */
export const myDecisionQuery = $api.queryOptions('get', '/api/decision');

/** PUT /api/decision/reply: the status with the reply replaces the one shown. */
export function useReplyToOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reply: components['schemas']['OfferReply']['reply']) => dataOf(api.PUT('/api/decision/reply', { body: { reply } })),
    onSuccess: (status) => queryClient.setQueryData(myDecisionQuery.queryKey, status),
  });
}

/** GET /api/decision/letter: the letter as a PDF, a plain link (the browser saves it under its name). */
export const LETTER_PDF_URL = '/api/decision/letter';
