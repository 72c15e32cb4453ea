// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it } from 'vitest';
import { deriveWebStatus, numLogins } from './formState';

const at = '2026-11-22T18:00:00Z';

describe('deriveWebStatus', () => {
  it.each([
    [[], null],
    [['started'], 'started'],
    [['started', 'started'], 'started'],
    [['started', 'validating'], 'validating'],
    [['started', 'validating', 'submitted'], 'submitted'],
  ] as const)('%j → %s', (statuses, expected) => {
    expect(deriveWebStatus(statuses.map((web_status) => ({ web_status, created_at: at })))).toBe(expected);
  });
});

describe('numLogins', () => {
  it('counts successful logins, at least 1', () => {
    expect(numLogins(undefined)).toBe(1);
    expect(numLogins({ successful_login: [] })).toBe(1);
    expect(numLogins({ successful_login: [{ timestamp: at }, { timestamp: at }] })).toBe(2);
  });
});
