import { describe, expect, it } from 'vitest';
import { staffRoleCovers, type StaffRole } from './staff';

describe('staff roles (issue 30): each covers the ones before it', () => {
  it.each<[StaffRole, StaffRole, boolean]>([
    ['reader', 'reader', true],
    ['reader', 'decider', false],
    ['reader', 'admin', false],
    ['decider', 'reader', true],
    ['decider', 'decider', true],
    ['decider', 'admin', false],
    ['admin', 'reader', true],
    ['admin', 'decider', true],
    ['admin', 'admin', true],
  ])('a %s may do what a %s may: %s', (role, needed, covers) => {
    expect(staffRoleCovers(role, needed)).toBe(covers);
  });
});
