import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { components, operations } from '../../../../../generated/api';
import { patchApplication, staffApplicationQuery } from '../../kit/applicationCache';
import { $api, api, dataOf, doneOf } from '../../../../lib/api/client';

type StaffApplication = components['schemas']['StaffApplication'];

/** GET /staff/api/review-form: the cycle's form (read by every reader, defined by an admin). */
export const reviewFormQuery = $api.queryOptions('get', '/staff/api/review-form', {}, { retry: false });

/** GET /staff/api/composite-formula: the cycle's composite score formula (read by every reader, defined by an admin). */
export const compositeFormulaQuery = $api.queryOptions('get', '/staff/api/composite-formula', {}, { retry: false });

/**
 * PUT /staff/api/composite-formula (admin): the formula is read again whatever the answer; the
 * lists and applications read before show composites a job is now computing again, so they are
 * read again when next shown.
 */
export function useSetCompositeFormula() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['CompositeFormulaDefinition']) => dataOf(api.PUT('/staff/api/composite-formula', { body })),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['staff', 'application'], type: 'inactive' });
      return queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/applications'] });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: compositeFormulaQuery.queryKey }),
  });
}

/** GET /staff/api/committee (decider): a bin or a selection with every review side by side; audited, so read once per visit. */
export const committeeQuery = (query: NonNullable<operations['getCommittee']['parameters']['query']>) =>
  $api.queryOptions('get', '/staff/api/committee', { params: { query } }, { retry: false, staleTime: Infinity });

/** GET /staff/api/saved-views: my views of the list, and those shared with the office. */
export const savedViewsQuery = $api.queryOptions('get', '/staff/api/saved-views', {}, { retry: false });

/** POST /staff/api/saved-views: the views are read again on success. */
export function useCreateSavedView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['SavedViewRequest']) => dataOf(api.POST('/staff/api/saved-views', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedViewsQuery.queryKey }),
  });
}

/** DELETE /staff/api/saved-views/{view}: the views are read again whatever the answer (another member may have removed it). */
export function useDeleteSavedView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (view: number) => doneOf(api.DELETE('/staff/api/saved-views/{view}', { params: { path: { view } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: savedViewsQuery.queryKey }),
  });
}

/** GET /staff/api/bins: the bins in order, with their counts. */
export const binsQuery = $api.queryOptions('get', '/staff/api/bins', {}, { retry: false });

/** GET /staff/api/readers (decider): who can be given applications, with their open assignments. */
export const readersQuery = $api.queryOptions('get', '/staff/api/readers', {}, { retry: false });

/**
 * After a move or a share-out: the lists, counts, bins and loads are read again; applications read
 * earlier are dropped (read when next opened), and the open one is changed in place by `patch`
 * (reading it again would record a second view).
 */
function afterWorkflowChange(queryClient: QueryClient, ids: readonly string[], patch: (application: StaffApplication) => StaffApplication) {
  queryClient.removeQueries({ queryKey: ['staff', 'application'], type: 'inactive' });
  for (const id of ids) patchApplication(queryClient, id, patch);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/applications'] }),
    queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/application-counts'] }),
    queryClient.invalidateQueries({ queryKey: binsQuery.queryKey }),
    queryClient.invalidateQueries({ queryKey: readersQuery.queryKey }),
  ]);
}

/** PUT /staff/api/review-form (admin): the form is read again whatever the answer. */
export function useSetReviewForm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['ReviewFormDefinition']) => dataOf(api.PUT('/staff/api/review-form', { body })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewFormQuery.queryKey }),
  });
}

/**
 * POST /staff/api/applications/{id}/reviews. The signed review and the scores it moved join the cached application; in a
 * blind bin the others' reviews were held back, so the application is read again to show them.
 * The queue is read again: the review completes the assignment. A 409 for a changed form reads the form again.
 */
export function useSubmitReview(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['ReviewRequest']) => dataOf(api.POST('/staff/api/applications/{id}/reviews', { params: { path: { id } }, body })),
    onSuccess: async ({ scores, ...review }) => {
      const cached = queryClient.getQueryData<StaffApplication>(staffApplicationQuery(id).queryKey);
      if (cached && cached.reviews_hidden > 0) await queryClient.invalidateQueries({ queryKey: staffApplicationQuery(id).queryKey });
      // The scores the review moved come with it (issue 51 §1).
      else patchApplication(queryClient, id, (application) => ({ ...application, reviews: [...application.reviews, review], scores }));
      await queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/applications'] });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: reviewFormQuery.queryKey }),
  });
}

/** PUT /staff/api/bins (admin): the bins are read again whatever the answer. */
export function useSetBins() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['BinsRequest']) => dataOf(api.PUT('/staff/api/bins', { body })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: binsQuery.queryKey }),
  });
}

/** POST /staff/api/bins/moves (decider). */
export function useMoveApplications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['MoveRequest']) => dataOf(api.POST('/staff/api/bins/moves', { body })),
    onSuccess: (_moved, body) => {
      const bin = queryClient.getQueryData<components['schemas']['BinList']>(binsQuery.queryKey)?.bins.find((b) => b.id === body.bin_id);
      return afterWorkflowChange(queryClient, body.application_ids, (application) => ({ ...application, bin: bin ? { id: bin.id, name: bin.name, blind: bin.blind } : null }));
    },
  });
}

/** POST /staff/api/assignments (decider): to one reader, or shared out among several. */
export function useAssignApplications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['AssignRequest']) => dataOf(api.POST('/staff/api/assignments', { body })),
    onSuccess: (result) => {
      const at = new Date().toISOString();
      const ids = result.assigned.map((a) => a.application_id);
      return afterWorkflowChange(queryClient, ids, (application) => ({
        ...application,
        assignments: [
          ...application.assignments,
          ...result.assigned.filter((a) => a.application_id === application.id).map((a) => ({ staff_id: a.staff_id, staff_email: a.staff_email, assigned_at: at, reviewed_at: null })),
        ],
      }));
    },
  });
}

/** DELETE /staff/api/applications/{id}/assignments/{staff_id} (decider): out of the open application's list in place. */
export function useUnassignApplication(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (staffId: string) => doneOf(api.DELETE('/staff/api/applications/{id}/assignments/{staff_id}', { params: { path: { id, staff_id: staffId } } })),
    onSuccess: (_done, staffId) => {
      patchApplication(queryClient, id, (application) => ({ ...application, assignments: application.assignments.filter((a) => a.staff_id !== staffId) }));
      return Promise.all([queryClient.invalidateQueries({ queryKey: readersQuery.queryKey }), queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/applications'] })]);
    },
  });
}
