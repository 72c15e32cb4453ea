import type { Profile } from '../../lib/api/profile';
import type { WebStatus } from './api/webStatus';

/** The client snapshot of spec/platform.md §3. */
export interface ClientSnapshot {
  username: string | null;
  last_page: string | null;
  is_logged_in: boolean;
  is_service_user: boolean;
  num_logins: number;
  has_changed_page: boolean;
  web_status: WebStatus | null;
}

/** spec/platform.md §4: none → null, one distinct → started, two → validating, three → submitted. */
export function deriveWebStatus(entries: Profile['web_status']): WebStatus | null {
  const distinct = new Set(entries.map((entry) => entry.web_status)).size;
  return distinct === 0 ? null : distinct === 1 ? 'started' : distinct === 2 ? 'validating' : 'submitted';
}

/** The count of successful logins, at least 1 (spec/platform.md §3). */
export const numLogins = (profile: Pick<Profile, 'successful_login'> | undefined) => Math.max(1, profile?.successful_login.length ?? 0);
