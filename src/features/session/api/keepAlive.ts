import { api, dataOf } from '../../../lib/api/client';

/** POST /api/keep-alive: extends the server session ('Stay signed in'). */
export const keepAlive = () => dataOf(api.POST('/api/keep-alive'));
