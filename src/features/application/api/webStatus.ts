import type { components } from '../../../../generated/api';
import { WEB_STATUS_POST_RETRIES } from '../../../../domain/config';
import { api, dataOf } from '../../../lib/api/client';

export type WebStatus = components['schemas']['WebStatus'];

/** POST /api/web-status, the one call the spec retries (twice): use it as a mutation. */
export const webStatusMutation = {
  mutationFn: (web_status: WebStatus) => dataOf(api.POST('/api/web-status', { body: { web_status } })),
  retry: WEB_STATUS_POST_RETRIES,
} as const;
