/** The open application's cached read: every capability's panel (review, decisions, materials, records) changes it in place, as reading it again would record a second view. */
import type { components } from '../../../../generated/api';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, dataOf } from '../../../lib/api/client';

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

type StaffApplication = components['schemas']['StaffApplication'];

/** The open application's cached read changed in place: reading it again would record a second view. */
export const patchApplication = (queryClient: QueryClient, id: string, patch: (application: StaffApplication) => StaffApplication) =>
  queryClient.setQueryData(staffApplicationQuery(id).queryKey, (application: StaffApplication | undefined) => (application ? patch(application) : application));
