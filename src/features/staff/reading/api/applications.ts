import type { components, operations } from '../../../../../generated/api';
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { $api, api, dataOf, doneOf } from '../../../../lib/api/client';
import { withCatalogueLabels } from '../../../../../domain/rules/choiceLabels';

export type ApplicationQuery = NonNullable<operations['listApplications']['parameters']['query']>;

/** How often the list asks whether applications arrived. */
const COUNTS_EVERY_MS = 60_000;

/** GET /staff/api/application-counts: the list's counts alone, asked each minute (not audited: no applicant's data). */
export const applicationCountsQuery = ({ entry_term, q, bin, queue, checklist, missing }: ApplicationQuery) =>
  $api.queryOptions(
    'get',
    '/staff/api/application-counts',
    // The filters the counts share with the list (not its status, order or page), those set only.
    { params: { query: Object.fromEntries(Object.entries({ entry_term, q, bin, queue, checklist, missing }).filter(([, value]) => value !== undefined)) as NonNullable<operations['countApplications']['parameters']['query']> } },
    { retry: false, refetchInterval: COUNTS_EVERY_MS },
  );

/** Rows on a page of the applications list. */
export const APPLICATION_PAGE_SIZE = 25;

/** The list's query from its address (filters, search, sort, page): the list and the reader's next / previous read the same. */
export function applicationListQuery(params: URLSearchParams): ApplicationQuery {
  const status = params.get('status');
  const checklist = params.get('checklist');
  return {
    ...(status === 'started' || status === 'validating' || status === 'submitted' ? { status } : {}),
    ...(params.get('entry_term') ? { entry_term: params.get('entry_term')! } : {}),
    ...(params.get('q') ? { q: params.get('q')! } : {}),
    ...(/^\d+$/.test(params.get('bin') ?? '') ? { bin: Number(params.get('bin')) } : {}),
    ...(params.get('queue') === 'mine' ? { queue: 'mine' as const } : {}),
    ...(checklist === 'complete' || checklist === 'incomplete' ? { checklist } : {}),
    ...(/^[a-z][a-z0-9_]{0,59}$/.test(params.get('missing') ?? '') ? { missing: params.get('missing')! } : {}),
    sort: params.get('sort') === 'submitted_asc' ? 'submitted_asc' : 'submitted_desc',
    page: Math.max(1, Number(params.get('page')) || 1),
    page_size: APPLICATION_PAGE_SIZE,
  };
}

/** GET /staff/api/applications: one page, with the counts per status. */
export const applicationsQuery = (query: ApplicationQuery) => $api.queryOptions('get', '/staff/api/applications', { params: { query } }, { retry: false, placeholderData: (previous) => previous });

/**
 * GET /staff/api/applications/{id}: one application. The server records each answer as a view,
 * so the fetch is never cancelled and made again (no `signal`: a remount, as React's StrictMode
 * does, or a quick back-and-forth finds the fetch under way instead of starting a second).
 */
export const staffApplicationQuery = (id: string) =>
  queryOptions({
    queryKey: ['staff', 'application', id],
    queryFn: () => dataOf(api.GET('/staff/api/applications/{id}', { params: { path: { id } } })),
    retry: false,
    staleTime: Infinity,
  });

/**
 * POST /staff/api/applications/{id}/notes. The note the server kept joins the open application's
 * notes in place: reading the application again would record a second view in the audit log.
 */
export function useAddApplicationNote(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => dataOf(api.POST('/staff/api/applications/{id}/notes', { params: { path: { id } }, body: { text } })),
    onSuccess: (note) => patchApplication(queryClient, id, (application) => ({ ...application, notes: [...application.notes, note] })),
  });
}

type StaffApplication = components['schemas']['StaffApplication'];

/** The open application's cached read changed in place: reading it again would record a second view. */
export const patchApplication = (queryClient: QueryClient, id: string, patch: (application: StaffApplication) => StaffApplication) =>
  queryClient.setQueryData(staffApplicationQuery(id).queryKey, (application: StaffApplication | undefined) => (application ? patch(application) : application));

/**
 * POST /staff/api/applications/{id}/pdf: make a failed PDF copy again. The copy's new status
 * replaces the open application's in place (reading it again would record a second view).
 */
export function useRemakePdfCopy(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => dataOf(api.POST('/staff/api/applications/{id}/pdf', { params: { path: { id } } })),
    onSuccess: (copy) => patchApplication(queryClient, id, (application) => ({ ...application, pdf: { status: copy.status } })),
  });
}

/** Where the browser downloads a document or the PDF copy (a plain link: the file streams to disk). */
export const documentUrl = (id: string, key: string) => `/staff/api/applications/${encodeURIComponent(id)}/documents/${encodeURIComponent(key)}`;
/** The document read in the reader's page (recorded as `document_view`, not a download). */
export const documentViewUrl = (id: string, key: string) => `${documentUrl(id, key)}?view=inline`;

/** A file attached to a checklist item, as converted: its download, and its read in the page (recorded as a view). */
export const materialUrl = (id: string, material: string) => `/staff/api/applications/${encodeURIComponent(id)}/materials/${encodeURIComponent(material)}`;
export const materialViewUrl = (id: string, material: string) => `${materialUrl(id, material)}?view=inline`;
export const pdfCopyUrl = (id: string) => `/staff/api/applications/${encodeURIComponent(id)}/pdf`;

/** GET /staff/api/dashboard. */
export const dashboardQuery = $api.queryOptions('get', '/staff/api/dashboard', { params: { query: { days: 90 } } }, { retry: false });

/**
 * PUT /staff/api/applications/{id}/conflict: the application is no longer shown to this member:
 * its cached read is dropped and the lists are read again (without it).
 */
export function useDeclareConflict(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => doneOf(api.PUT('/staff/api/applications/{id}/conflict', { params: { path: { id } }, body: reason.trim() ? { reason } : {} })),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: staffApplicationQuery(id).queryKey });
      return queryClient.invalidateQueries({ queryKey: ['get', '/staff/api/applications'] });
    },
  });
}

/** GET /staff/api/conflicts (admin). */
export const conflictsQuery = $api.queryOptions('get', '/staff/api/conflicts', {}, { retry: false });

/** DELETE /staff/api/applications/{id}/conflicts/{staff_id} (admin): the list is read again whatever the answer. */
export function useWithdrawConflict() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ applicationId, staffId }: { applicationId: string; staffId: string }) =>
      doneOf(api.DELETE('/staff/api/applications/{id}/conflicts/{staff_id}', { params: { path: { id: applicationId, staff_id: staffId } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: conflictsQuery.queryKey }),
  });
}

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
