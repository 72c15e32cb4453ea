import { api, dataOf } from '../../../lib/api/client';

/** GET /service/tmp-pdf: one application, read-only, for a service token. */
export const getServiceView = (service_token: string) => dataOf(api.GET('/service/tmp-pdf', { params: { query: { service_token } } }));
