import { $api } from '../../../lib/api/client';

/** GET /api/pdf: the PDF copy of the submitted application. */
export const pdfCopyQuery = $api.queryOptions('get', '/api/pdf');
