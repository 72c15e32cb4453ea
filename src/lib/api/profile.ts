import type { components } from '../../../generated/api';
import { pages } from '../../../domain/catalogue/pages';
import { COMPLETION_PATH, DEFAULT_FORM_PATH } from '../paths';
import { $api } from './client';

export type Profile = components['schemas']['Profile'];

/** GET /api/profile: the signed-in applicant's answers, statuses and logins (spec/platform.md §3). */
export const profileQuery = $api.queryOptions('get', '/api/profile');

const formPaths: readonly string[] = pages.map((page) => page.path);

/**
 * Where a sign-in lands (spec/platform.md §2): the completion page once submitted, else the page
 * the applicant was last on, else the default. Read before leaving the sign-in card, so the form
 * opens at its own address (issue 48: Final Steps showed at /about's for half a second).
 */
export function landingPath(profile: Pick<Profile, 'last_page' | 'web_status'>): string {
  if (profile.web_status.some((entry) => entry.web_status === 'submitted')) return COMPLETION_PATH;
  return profile.last_page && formPaths.includes(profile.last_page) ? profile.last_page : DEFAULT_FORM_PATH;
}
