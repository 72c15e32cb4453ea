import type { components } from '../../../../generated/api';
import { $api } from '../../../lib/api/client';

export type Profile = components['schemas']['Profile'];

/** GET /api/profile: the signed-in applicant's answers, statuses and logins (spec/platform.md §3). */
export const profileQuery = $api.queryOptions('get', '/api/profile');
