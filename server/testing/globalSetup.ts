import { pgliteImage } from './images';

/**
 * Vitest's server project, once before its suites: the migrated embedded database every suite
 * loads (server/testing/images.ts). The other images are made by the first suite that needs them.
 */
export default async function setup() {
  await pgliteImage();
}
