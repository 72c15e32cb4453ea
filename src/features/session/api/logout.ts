import { api, dataOf } from '../../../lib/api/client';

/** GET /api/logout: ends the session on the server and clears its cookies. */
export const logout = () => dataOf(api.GET('/api/logout'));
