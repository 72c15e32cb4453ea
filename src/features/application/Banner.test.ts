// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it } from 'vitest';
import type { ClientSnapshot } from './formState';
import { bannerShows } from './Banner';

describe('when the banner shows', () => {
  const snapshot = (over: Partial<ClientSnapshot>): ClientSnapshot => ({
    username: null, last_page: null, is_logged_in: true, is_service_user: false, num_logins: 1, has_changed_page: false, web_status: 'started', ...over,
  });
  it.each([
    [{ web_status: 'submitted' as const, has_changed_page: true }, true],
    [{ is_logged_in: false, has_changed_page: true, web_status: null }, true],
    [{ has_changed_page: false }, true],
    [{ has_changed_page: true }, false],
    [{ web_status: 'validating' as const, has_changed_page: false }, false],
    [{ web_status: 'validating' as const, is_logged_in: false }, false],
  ])('%j → %s', (over, shows) => {
    expect(bannerShows(snapshot(over))).toBe(shows);
  });
});
