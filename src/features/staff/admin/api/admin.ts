import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components, operations } from '../../../../../generated/api';
import { $api, api, dataOf } from '../../../../lib/api/client';

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
