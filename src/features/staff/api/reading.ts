import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { uploadFile } from '../../../lib/api/upload';
import type { components } from '../../../../generated/api';
import { $api, api, dataOf, doneOf } from '../../../lib/api/client';
import { patchApplication, staffApplicationQuery } from './applications';

type StaffApplication = components['schemas']['StaffApplication'];

/** GET /staff/api/review-form: the cycle's form (read by every reader, defined by an admin). */
export const reviewFormQuery = $api.queryOptions('get', '/staff/api/review-form', {}, { retry: false });

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
 * POST /staff/api/applications/{id}/reviews. The signed review joins the cached application; in a
 * blind bin the others' reviews were held back, so the application is read again to show them.
 * The queue is read again: the review completes the assignment. A 409 for a changed form reads the form again.
 */
export function useSubmitReview(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['ReviewRequest']) => dataOf(api.POST('/staff/api/applications/{id}/reviews', { params: { path: { id } }, body })),
    onSuccess: async (review) => {
      const cached = queryClient.getQueryData<StaffApplication>(staffApplicationQuery(id).queryKey);
      if (cached && cached.reviews_hidden > 0) await queryClient.invalidateQueries({ queryKey: staffApplicationQuery(id).queryKey });
      else patchApplication(queryClient, id, (application) => ({ ...application, reviews: [...application.reviews, review] }));
      await queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/applications'] });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: reviewFormQuery.queryKey }),
  });
}

/** GET /staff/api/checklist-rules: the checklist's items in force (the list's Materials filter, the admin's editor). */
export const checklistRulesQuery = $api.queryOptions('get', '/staff/api/checklist-rules', {}, { retry: false });

/** PUT /staff/api/checklist-rules (admin): the version kept replaces the one shown; the lists' filters read again. */
export function useSetChecklistRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['ChecklistRulesRequest']) => dataOf(api.PUT('/staff/api/checklist-rules', { body })),
    onSuccess: (rules) => {
      queryClient.setQueryData(checklistRulesQuery.queryKey, rules);
      return queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/applications'] });
    },
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

type Checklist = components['schemas']['Checklist'];

/** A file attached for an item is still being converted: the checklist is asked again until it is done. */
const converting = (checklist: Checklist | undefined) => Boolean(checklist?.items.some((item) => item.materials.some((file) => file.status === 'unprocessed' || file.status === 'in_progress')));
const CONVERSION_POLL_MS = 2_000;

/**
 * GET /staff/api/applications/{id}/checklist: the checklist, first as the application was read;
 * asked again (and recorded as read) only while a file attached for it converts.
 */
export const checklistQuery = (id: string, initial: Checklist) =>
  queryOptions({
    queryKey: ['staff', 'checklist', id],
    queryFn: () => dataOf(api.GET('/staff/api/applications/{id}/checklist', { params: { path: { id } } })),
    initialData: initial,
    staleTime: Infinity,
    retry: false,
    refetchInterval: (query) => (converting(query.state.data) ? CONVERSION_POLL_MS : false),
  });

/**
 * The checklist as the server has it now: kept for the panel and the open application in place
 * (reading it again would record a second view); the lists' checklist filters and the bins
 * (a complete application may have moved) are read again.
 */
function afterChecklistChange(queryClient: QueryClient, id: string, checklist: Checklist) {
  queryClient.setQueryData(['staff', 'checklist', id], checklist);
  patchApplication(queryClient, id, (application) => ({ ...application, checklist }));
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/applications'] }),
    queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/application-counts'] }),
    queryClient.invalidateQueries({ queryKey: binsQuery.queryKey }),
  ]);
}

/** PUT /staff/api/applications/{id}/checklist/{key}. */
export function useMarkChecklistItem(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, ...body }: components['schemas']['ChecklistMarkRequest'] & { key: string }) =>
      dataOf(api.PUT('/staff/api/applications/{id}/checklist/{key}', { params: { path: { id, key } }, body })),
    onSuccess: (checklist) => afterChecklistChange(queryClient, id, checklist),
  });
}

/**
 * A file that arrived for an item: a signed policy (POST …/checklist/{key}/upload), the upload
 * to it, then POST …/checklist/{key}/materials. The file joins its item at once, being converted.
 */
export function useAttachMaterial(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ key, file, contentType }: { key: string; file: File; contentType: components['schemas']['UploadContentType'] }) => {
      const path = { id, key };
      const post = await dataOf(api.POST('/staff/api/applications/{id}/checklist/{key}/upload', { params: { path }, body: { content_type: contentType } }));
      await uploadFile(post, file);
      return dataOf(api.POST('/staff/api/applications/{id}/checklist/{key}/materials', { params: { path }, body: { file_key: post.fields.key, file_name: file.name } }));
    },
    onSuccess: (material, { key }) => {
      queryClient.setQueryData(['staff', 'checklist', id], (checklist: Checklist | undefined) =>
        checklist && { ...checklist, items: checklist.items.map((item) => (item.key === key ? { ...item, materials: [...item.materials, material] } : item)) },
      );
      // Asked at once (a small PDF is converted by then), then every few seconds while it converts.
      return queryClient.invalidateQueries({ queryKey: ['staff', 'checklist', id] });
    },
  });
}

/** DELETE /staff/api/applications/{id}/materials/{material}: a file attached by mistake. */
export function useRemoveMaterial(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (material: string) => dataOf(api.DELETE('/staff/api/applications/{id}/materials/{material}', { params: { path: { id, material } } })),
    onSuccess: (checklist) => afterChecklistChange(queryClient, id, checklist),
  });
}
