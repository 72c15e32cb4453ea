/**
 * A process with the worker's handler of unhandled rejections (server/infra/outages.test.ts): a
 * rejection meaning the database refuses connections, then, once it has said it is alive, a bug's.
 *
 *   node --import tsx server/testing/outageChild.ts
 */
import { surviveOutages } from '../infra/outages';

surviveOutages((message) => console.error(message));
void Promise.reject(Object.assign(new Error('database "portal" is not currently accepting connections'), { code: '55000' }));
setTimeout(() => {
  console.log('alive after the outage');
  void Promise.reject(new TypeError('a bug'));
}, 50);
setTimeout(() => console.log('alive after the bug'), 5_000);
