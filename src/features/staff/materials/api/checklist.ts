import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { uploadFile } from '../../../../lib/api/upload';
import type { components } from '../../../../../generated/api';
import { patchApplication } from '../../kit/applicationCache';
import { $api, api, dataOf } from '../../../../lib/api/client';
import { binsQuery } from '../../review/api/review';

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

/** A file attached to a checklist item, as converted: its download, and its read in the page (recorded as a view). */
export const materialUrl = (id: string, material: string) => `/staff/api/applications/${encodeURIComponent(id)}/materials/${encodeURIComponent(material)}`;
export const materialViewUrl = (id: string, material: string) => `${materialUrl(id, material)}?view=inline`;
