import { $api, api, dataOf } from '../../../lib/api/client';

/** GET /api/pdf: the PDF copy of the submitted application. */
export const pdfCopyQuery = $api.queryOptions('get', '/api/pdf');

/** POST /api/pdf: make the copy again after it failed. */
export const retryPdfCopy = () => dataOf(api.POST('/api/pdf'));
