import type { operations } from '../../../../../generated/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { patchApplication, staffApplicationQuery } from '../../kit/applicationCache';
import { $api, api, dataOf, doneOf } from '../../../../lib/api/client';
import { scoreMeasureOf } from '../../../../../domain/scores';

export type ApplicationQuery = NonNullable<operations['listApplications']['parameters']['query']>;

/** How often the list asks whether applications arrived. */
const COUNTS_EVERY_MS = 60_000;

/** GET /staff/api/application-counts: the list's counts alone, asked each minute (not audited: no applicant's data). */
export const applicationCountsQuery = ({ entry_term, q, bin, queue, checklist, missing, score, score_min, score_max, major, place, school, decision, reply }: ApplicationQuery) =>
  $api.queryOptions(
    'get',
    '/staff/api/application-counts',
    // The filters the counts share with the list (not its status, order or page), those set only.
    {
      params: {
        query: Object.fromEntries(Object.entries({ entry_term, q, bin, queue, checklist, missing, score, score_min, score_max, major, place, school, decision, reply }).filter(([, value]) => value !== undefined)) as NonNullable<
          operations['countApplications']['parameters']['query']
        >,
      },
    },
    { retry: false, refetchInterval: COUNTS_EVERY_MS },
  );

const DECISION_FILTERS = ['admit', 'deny', 'waitlist', 'defer', 'none'] as const;
const REPLY_FILTERS = ['accept', 'decline', 'none'] as const;

/** The list's orders (openapi.yaml listApplications `sort`). */
const LIST_SORTS = ['submitted_desc', 'submitted_asc', 'score_desc', 'score_asc'] as const;

/** A score's bound from the address: a number, or nothing. */
function scoreBound(text: string | null): number | undefined {
  if (text === null || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) && Math.abs(value) <= 1_000_000 ? value : undefined;
}

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
    ...(scoreMeasureOf(params.get('score') ?? '') ? { score: params.get('score')! } : {}),
    // A report's groups (issue 51 §1): filters with no control of their own, shown above the list.
    ...Object.fromEntries((['major', 'place', 'school'] as const).flatMap((key) => (params.get(key) ? [[key, params.get(key)!.slice(0, 200)]] : []))),
    ...(DECISION_FILTERS.find((value) => value === params.get('decision')) ? { decision: params.get('decision') as (typeof DECISION_FILTERS)[number] } : {}),
    ...(REPLY_FILTERS.find((value) => value === params.get('reply')) ? { reply: params.get('reply') as (typeof REPLY_FILTERS)[number] } : {}),
    ...(scoreBound(params.get('score_min')) !== undefined ? { score_min: scoreBound(params.get('score_min')) } : {}),
    ...(scoreBound(params.get('score_max')) !== undefined ? { score_max: scoreBound(params.get('score_max')) } : {}),
    sort: LIST_SORTS.find((sort) => sort === params.get('sort')) ?? 'submitted_desc',
    page: Math.max(1, Number(params.get('page')) || 1),
    page_size: APPLICATION_PAGE_SIZE,
  };
}

/** GET /staff/api/applications: one page, with the counts per status. */
export const applicationsQuery = (query: ApplicationQuery) => $api.queryOptions('get', '/staff/api/applications', { params: { query } }, { retry: false, placeholderData: (previous) => previous });

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
