import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../generated/api';
import { patchApplication } from '../../kit/applicationCache';
import { $api, api, dataOf } from '../../../../lib/api/client';

export type DecisionStateFilter = 'provisional' | 'scheduled' | 'released';

/** GET /staff/api/decisions (decider): one page of one state. */
export const decisionsQuery = (state: DecisionStateFilter, page: number) =>
  $api.queryOptions('get', '/staff/api/decisions', { params: { query: { state, page } } }, { retry: false, placeholderData: (previous) => previous });

/**
 * PUT /staff/api/applications/{id}/decision (decider). The kept decision replaces the open
 * application's in place (reading the application again would record a second view); the lists
 * of decisions are read again.
 */
export function useSetDecision(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['DecisionRequest']) => dataOf(api.PUT('/staff/api/applications/{id}/decision', { params: { path: { id } }, body })),
    onSuccess: (decision) => {
      patchApplication(queryClient, id, (application) => ({ ...application, decision }));
      return queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/decisions'] });
    },
  });
}

/** PUT /staff/api/applications/{id}/reply (decider): the decision with the reply recorded replaces the open application's; the decisions' lists are read again. */
export function useRecordReply(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['ReplyRecordRequest']) => dataOf(api.PUT('/staff/api/applications/{id}/reply', { params: { path: { id } }, body })),
    onSuccess: (decision) => {
      patchApplication(queryClient, id, (application) => ({ ...application, decision }));
      return queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/decisions'] });
    },
  });
}

/**
 * POST /staff/api/decisions (decider): one decision on a selection. The lists of decisions are
 * read again, and the open applications' cached reads are dropped (not read again: each read is an
 * audited view, made only when one is opened).
 */
export function useDecideMany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['DecideManyRequest']) => dataOf(api.POST('/staff/api/decisions', { body })),
    onSettled: () => {
      queryClient.removeQueries({ queryKey: ['staff', 'application'] });
      // The committee decides in place: its table shows the decisions recorded.
      return Promise.all([queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/decisions'] }), queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/committee'] })]);
    },
  });
}

/** POST /staff/api/decisions/release (decider): the lists are read again whatever the answer. */
export function useReleaseDecisions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['ReleaseRequest']) => dataOf(api.POST('/staff/api/decisions/release', { body })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/decisions'] }),
  });
}

/** POST /staff/api/decisions/recall (decider): scheduled releases called back; the lists are read again whatever the answer. */
export function useRecallDecisions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['RecallRequest']) => dataOf(api.POST('/staff/api/decisions/recall', { body })),
    onSettled: () => {
      queryClient.removeQueries({ queryKey: ['staff', 'application'], type: 'inactive' });
      return queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/decisions'] });
    },
  });
}

/** GET /staff/api/letters (decider): the template of each decision. */
export const letterTemplatesQuery = $api.queryOptions('get', '/staff/api/letters', {}, { retry: false });

/** PUT /staff/api/letters/{decision} (admin): the templates are read again whatever the answer. */
export function useSetLetterTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ decision, ...body }: components['schemas']['LetterTemplateRequest'] & { decision: components['schemas']['Decision'] }) =>
      dataOf(api.PUT('/staff/api/letters/{decision}', { params: { path: { decision } }, body })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: letterTemplatesQuery.queryKey }),
  });
}

/**
 * GET /staff/api/applications/{id}/letter (decider): the letter this applicant would read. Each
 * read is an audited view: asked only when the decider asks, and kept for the page's life.
 */
export const letterPreviewQuery = (id: string, decision: components['schemas']['Decision']) =>
  $api.queryOptions('get', '/staff/api/applications/{id}/letter', { params: { path: { id }, query: { decision } } }, { retry: false, staleTime: Infinity });

/** GET /staff/api/reply-dates: each entry term's reply date and deposit line. */
export const replyDatesQuery = $api.queryOptions('get', '/staff/api/reply-dates', {}, { retry: false });

/** PUT /staff/api/reply-dates (admin): the dates are read again whatever the answer, and the letters shown before, merged with the old dates, are dropped. */
export function useSetReplyDates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['ReplyDatesRequest']) => dataOf(api.PUT('/staff/api/reply-dates', { body })),
    onSettled: () => {
      queryClient.removeQueries({ queryKey: ['staff', 'application'], type: 'inactive' });
      return queryClient.invalidateQueries({ queryKey: replyDatesQuery.queryKey });
    },
  });
}
