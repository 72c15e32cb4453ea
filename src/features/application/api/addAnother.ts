import { api, $api, dataOf } from '../../../lib/api/client';

/** GET /api/add-another: how many instances each repeated group shows. */
export const addAnotherQuery = $api.queryOptions('get', '/api/add-another');

/** PUT /api/add-another. */
export const putAddAnother = (button_id: string, num_components: number) => dataOf(api.PUT('/api/add-another', { body: { button_id, num_components } }));
