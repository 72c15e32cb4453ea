import { useMutation } from '@tanstack/react-query';
import type { components } from '../../../../generated/api';
import { api } from '../../../lib/api/client';
import { WEB_STATUS_RETRIES } from '../../../lib/queryClient';

export type WebStatus = components['schemas']['WebStatus'];

export async function postWebStatus(web_status: WebStatus) {
  const { data } = await api.POST('/api/web-status', { body: { web_status } });
  return data;
}

/** POST /api/web-status, the one call the spec retries (twice). */
export const webStatusMutation = { mutationFn: postWebStatus, retry: WEB_STATUS_RETRIES } as const;

export function usePostWebStatus() {
  return useMutation(webStatusMutation);
}
