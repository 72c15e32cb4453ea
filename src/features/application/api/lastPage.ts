import { api, dataOf } from '../../../lib/api/client';

/** PUT /api/last-page: records the page the applicant is on. */
export const putLastPage = (last_page: string) => dataOf(api.PUT('/api/last-page', { body: { last_page } }));
