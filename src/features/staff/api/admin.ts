import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components, operations } from '../../../../generated/api';
import { $api, api, dataOf, doneOf } from '../../../lib/api/client';

export type AuditQuery = NonNullable<operations['getAuditLog']['parameters']['query']>;
export type AuditAction = components['schemas']['AuditAction'];

/** GET /staff/api/audit (admin). */
export const auditQuery = (query: AuditQuery) => $api.queryOptions('get', '/staff/api/audit', { params: { query } }, { retry: false, placeholderData: (previous) => previous });

/** GET /staff/api/staff (admin). */
export const staffListQuery = $api.queryOptions('get', '/staff/api/staff', {}, { retry: false });

/** POST /staff/api/staff (admin): answers the one-time set-up link. */
export const inviteStaff = (body: components['schemas']['StaffInviteRequest']) => dataOf(api.POST('/staff/api/staff', { body }));

/** DELETE /staff/api/staff/{staff_id} (admin): the member's sessions end at once. */
export const removeStaff = (staffId: string) => dataOf(api.DELETE('/staff/api/staff/{staff_id}', { params: { path: { staff_id: staffId } } }));

/** PUT /staff/api/staff/{staff_id}/role (admin): the list is read again whatever the answer. */
export function useChangeStaffRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ staffId, role }: { staffId: string; role: components['schemas']['StaffRole'] }) =>
      dataOf(api.PUT('/staff/api/staff/{staff_id}/role', { params: { path: { staff_id: staffId } }, body: { role } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffListQuery.queryKey }),
  });
}

/** The export's address: a plain link, so the file streams to disk however large. */
export function exportUrl(format: 'csv' | 'jsonl', from: string, to: string): string {
  const query = new URLSearchParams({ format });
  if (from) query.set('from', new Date(`${from}T00:00:00Z`).toISOString());
  if (to) query.set('to', new Date(`${to}T00:00:00Z`).toISOString());
  return `/staff/api/export?${query}`;
}

/** GET /staff/api/retention (admin): the rules and the dry run. */
export const retentionQuery = $api.queryOptions('get', '/staff/api/retention', {}, { retry: false });

/** PUT /staff/api/retention (admin): answers the rules and the dry run, kept as the query's data. */
export function useSetRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['Retention']['rules']) => dataOf(api.PUT('/staff/api/retention', { body: { rules: body } })),
    onSuccess: (retention) => queryClient.setQueryData(retentionQuery.queryKey, retention),
  });
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

/** GET /staff/api/sign-in-rules (admin): who may sign in with the institution's identity, and as what. */
export const signInRulesQuery = $api.queryOptions('get', '/staff/api/sign-in-rules', {}, { retry: false });

/** PUT /staff/api/sign-in-rules (admin): the rules as saved become the query's data. */
export function useSetSignInRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { domains: string[]; role_claim: string; mappings: components['schemas']['RoleMapping'][] }) => dataOf(api.PUT('/staff/api/sign-in-rules', { body })),
    onSuccess: (rules) => queryClient.setQueryData(signInRulesQuery.queryKey, rules),
  });
}
