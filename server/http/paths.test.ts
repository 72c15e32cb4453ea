import { describe, expect, it } from 'vitest';
import { routeParam } from './paths';

describe('routeParam: a path parameter read in a hook that serves many routes', () => {
  it.each([
    [{ id: '0b6f6a36-7d5e-4b7a-9a43-2f3f1f8e2a10' }, '0b6f6a36-7d5e-4b7a-9a43-2f3f1f8e2a10'],
    [{ key: 'transcript' }, undefined],
    [{ id: 7 }, undefined],
    [undefined, undefined],
    [null, undefined],
  ])('in %j is %j', (params, id) => {
    expect(routeParam({ params }, 'id')).toBe(id);
  });
});
