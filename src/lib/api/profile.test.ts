// @vitest-environment node -- plain logic
import { describe, expect, it } from 'vitest';
import { landingPath } from './profile';

describe('where a sign-in lands (issue 48)', () => {
  it.each([
    [{ last_page: '/final-steps', web_status: [{ web_status: 'started' as const }] }, '/final-steps'],
    [{ last_page: null, web_status: [] }, '/about'],
    [{ last_page: '/somewhere', web_status: [{ web_status: 'started' as const }] }, '/about'],
    [{ last_page: '/education', web_status: [{ web_status: 'started' as const }, { web_status: 'validating' as const }, { web_status: 'submitted' as const }] }, '/completion'],
  ])('%j → %s', (profile, path) => expect(landingPath(profile)).toBe(path));
});
