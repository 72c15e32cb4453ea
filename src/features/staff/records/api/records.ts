import { hashKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../generated/api';
import { patchApplication } from '../../kit/applicationCache';
import { $api, api, dataOf, doneOf } from '../../../../lib/api/client';
import { refusalBodyOf } from '../../../../lib/api/errors';

/** GET /staff/api/retention (admin): the rules and today's dry run. */
export const retentionQuery = $api.queryOptions('get', '/staff/api/retention', {}, { retry: false });

/** GET /staff/api/retention?on= (admin): the dry run of another day, the future's too. */
export const retentionOnQuery = (on: string) => $api.queryOptions('get', '/staff/api/retention', { params: { query: { on } } }, { retry: false });

type RetentionBody = { rules: components['schemas']['Retention']['rules']; erase_now?: number };

/** PUT /staff/api/retention (admin): answers the rules and the dry run, kept as the query's data; other days' dry runs are read again. */
export function useSetRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RetentionBody) => dataOf(api.PUT('/staff/api/retention', { body })),
    onSuccess: (retention) => {
      queryClient.setQueryData(retentionQuery.queryKey, retention);
      return queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/retention'], predicate: (query) => query.queryHash !== hashKey(retentionQuery.queryKey) });
    },
  });
}

/** A save refused because its rules erase applications within the hour: how many, to confirm (issue 51). */
export function eraseToConfirm(error: unknown): components['schemas']['RetentionEraseConfirmation'] | null {
  const body = refusalBodyOf(error, 409);
  return body && typeof body.applications === 'number' && typeof body.files === 'number' && typeof body.message === 'string' ? { message: body.message, applications: body.applications, files: body.files } : null;
}

/** POST /staff/api/applications/{id}/erasure (admin): the list is read again, without them. */
export function useErasePerson(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { reason: string; email: string }) => dataOf(api.POST('/staff/api/applications/{id}/erasure', { params: { path: { id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/applications'] }),
  });
}

/** Everything held about one applicant: a plain link, so the zip streams to disk. */
export const personRecordUrl = (id: string) => `/staff/api/applications/${id}/record`;

/** GET /staff/api/duplicates: likely duplicates (a list view, audited with the ids it shows). */
export const duplicatesQuery = $api.queryOptions('get', '/staff/api/duplicates', {}, { retry: false });

/** POST /staff/api/applications/{id}/merge (admin): the pairs are read again. */
export function useMergeApplications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ into, duplicate, reason }: { into: string; duplicate: string; reason: string }) =>
      dataOf(api.POST('/staff/api/applications/{id}/merge', { params: { path: { id: into } }, body: { duplicate, reason } })),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: duplicatesQuery.queryKey }), queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/applications'] })]),
  });
}

/** DELETE /staff/api/applications/{id}/merge (admin): the record stands on its own again. */
export function useUnmergeApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => doneOf(api.DELETE('/staff/api/applications/{id}/merge', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/applications'] }),
  });
}

/** POST /staff/api/applications/{id}/withdrawal (decider): the withdrawal joins the open application in place. */
export function useWithdrawApplication(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => dataOf(api.POST('/staff/api/applications/{id}/withdrawal', { params: { path: { id } }, body: { reason } })),
    onSuccess: (withdrawal) => patchApplication(queryClient, id, (application) => ({ ...application, withdrawal })),
  });
}

/** DELETE /staff/api/applications/{id}/withdrawal (decider): the application stands again, in place. */
export function useReinstateApplication(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => doneOf(api.DELETE('/staff/api/applications/{id}/withdrawal', { params: { path: { id } } })),
    onSuccess: () => patchApplication(queryClient, id, (application) => ({ ...application, withdrawal: null })),
  });
}
