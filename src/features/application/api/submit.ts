import { api, dataOf } from '../../../lib/api/client';

/** POST /api/submit: the server validates the stored answers again and submits them. */
export const submitApplication = () => dataOf(api.POST('/api/submit'));
