import { useMutation } from '@tanstack/react-query';
import { api, dataOf } from '../../../lib/api/client';

/** PUT /api/last-page: records the page the applicant is on (the profile, read once, is not read again for it). */
export const usePutLastPage = () => useMutation({ mutationFn: (last_page: string) => dataOf(api.PUT('/api/last-page', { body: { last_page } })) });
