// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it } from 'vitest';
import { canonicalPath } from './paths';

describe('canonicalPath', () => {
  it("gives the spec's spelling of a route typed in another case or with a trailing slash", () => {
    expect(canonicalPath('/ABOUT')).toBe('/about');
    expect(canonicalPath('/about/')).toBe('/about');
    expect(canonicalPath('/Final-Steps//')).toBe('/final-steps');
    expect(canonicalPath('/LOGIN')).toBe('/login');
  });

  it('leaves a route as the spec writes it, and an unknown path, alone', () => {
    expect(canonicalPath('/about')).toBeNull();
    expect(canonicalPath('/nowhere')).toBeNull();
    expect(canonicalPath('/')).toBeNull();
  });
});
