import { useMutation, useQueryClient } from '@tanstack/react-query';
import { patchApplication } from '../../kit/applicationCache';
import { api, dataOf } from '../../../../lib/api/client';
import { withCatalogueLabels } from '../../../../../domain/rules/choiceLabels';

/**
 * POST /staff/api/applications/{id}/corrections (decider): the corrections and the corrected
 * answer replace the open application's in place (reading it again would record a second view).
 */
export function useCorrectAnswer(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { key: string; value: string | null; reason: string }) => dataOf(api.POST('/staff/api/applications/{id}/corrections', { params: { path: { id } }, body })),
    onSuccess: ({ corrections }, { key, value }) =>
      patchApplication(queryClient, id, (application) => {
        const answer = { ...application.view.answer };
        delete answer[key];
        delete answer[`${key}_desc`];
        const corrected = value === null || value === '' ? {} : (withCatalogueLabels({ [key]: value }) as Record<string, string>);
        return { ...application, corrections, view: { ...application.view, answer: { ...answer, ...corrected } } };
      }),
  });
}
