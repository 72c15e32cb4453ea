import { api, $api, dataOf } from '../../../lib/api/client';

/** GET /api/tabs: the chosen tab of each tab group. */
export const tabsQuery = $api.queryOptions('get', '/api/tabs');

/** PUT /api/tabs. */
export const putTab = (tab_id: string, chosen_tab: string) => dataOf(api.PUT('/api/tabs', { body: { tab_id, chosen_tab } }));
