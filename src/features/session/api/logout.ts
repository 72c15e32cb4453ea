import { api, dataOf } from '../../../lib/api/client';

/** POST /api/logout: ends the session on the server and clears its cookies. */
export const logout = () => dataOf(api.POST('/api/logout'));
