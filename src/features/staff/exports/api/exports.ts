import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../generated/api';
import { $api, api, dataOf, doneOf } from '../../../../lib/api/client';

export type ExportTemplateBody = components['schemas']['ExportTemplate'];
export type ExportRun = components['schemas']['ExportRun'];

/** GET /staff/api/export-templates (admin): while a run goes on, read again every 2 s until it ends. */
export const exportTemplatesQuery = $api.queryOptions(
  'get',
  '/staff/api/export-templates',
  {},
  { retry: false, refetchInterval: (query) => (query.state.data?.templates.some((template) => template.last_run?.status === 'running') ? 2000 : false) },
);

/** GET /staff/api/export-runs (admin): the latest runs, read again while one goes on. */
export const exportRunsQuery = $api.queryOptions('get', '/staff/api/export-runs', {}, { retry: false, refetchInterval: (query) => (query.state.data?.runs.some((run) => run.status === 'running') ? 2000 : false) });

/** GET /staff/api/export-templates/{template} (admin). */
export const exportTemplateQuery = (template: number) => $api.queryOptions('get', '/staff/api/export-templates/{template}', { params: { path: { template } } }, { retry: false });

const invalidateExports = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all([queryClient.invalidateQueries({ queryKey: exportTemplatesQuery.queryKey }), queryClient.invalidateQueries({ queryKey: exportRunsQuery.queryKey })]);

/** POST /staff/api/export-templates (admin). */
export function useCreateExportTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ExportTemplateBody) => dataOf(api.POST('/staff/api/export-templates', { body })),
    onSuccess: () => invalidateExports(queryClient),
  });
}

/** PUT /staff/api/export-templates/{template} (admin). */
export function useUpdateExportTemplate(template: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ExportTemplateBody) => dataOf(api.PUT('/staff/api/export-templates/{template}', { params: { path: { template } }, body })),
    onSuccess: (saved) => {
      queryClient.setQueryData(exportTemplateQuery(template).queryKey, saved);
      return invalidateExports(queryClient);
    },
  });
}

/** DELETE /staff/api/export-templates/{template} (admin). */
export function useDeleteExportTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (template: number) => doneOf(api.DELETE('/staff/api/export-templates/{template}', { params: { path: { template } } })),
    onSettled: () => invalidateExports(queryClient),
  });
}

/** POST /staff/api/export-templates/{template}/runs (admin): the lists follow the run until it ends. */
export function useStartExportRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ template, mode }: { template: number; mode: 'changes' | 'all' }) => dataOf(api.POST('/staff/api/export-templates/{template}/runs', { params: { path: { template } }, body: { mode } })),
    onSettled: () => invalidateExports(queryClient),
  });
}

/** A succeeded run's file: a plain link, so it streams to disk however large. */
export const exportRunFileUrl = (run: number) => `/staff/api/export-runs/${run}/file`;

/** A succeeded run's documents' zip, the same way. */
export const exportRunDocumentsUrl = (run: number) => `/staff/api/export-runs/${run}/documents`;

/** GET /staff/api/export-clients (admin). */
export const exportClientsQuery = $api.queryOptions('get', '/staff/api/export-clients', {}, { retry: false });

/** POST /staff/api/export-clients (admin): answers the key, shown once. */
export function useCreateExportClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; templates: number[] }) => dataOf(api.POST('/staff/api/export-clients', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: exportClientsQuery.queryKey }),
  });
}

/** DELETE /staff/api/export-clients/{client} (admin): the key opens nothing from now on. */
export function useRevokeExportClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (client: number) => doneOf(api.DELETE('/staff/api/export-clients/{client}', { params: { path: { client } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: exportClientsQuery.queryKey }),
  });
}

/** The export's address: a plain link, so the file streams to disk however large. */
export function exportUrl(format: 'csv' | 'jsonl', from: string, to: string): string {
  const query = new URLSearchParams({ format });
  if (from) query.set('from', new Date(`${from}T00:00:00Z`).toISOString());
  if (to) query.set('to', new Date(`${to}T00:00:00Z`).toISOString());
  return `/staff/api/export?${query}`;
}
