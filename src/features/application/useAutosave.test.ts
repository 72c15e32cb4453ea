// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it } from 'vitest';
import { changedAnswers } from './useAutosave';

describe('changedAnswers', () => {
  it('sends changed and new keys, and removed keys as empty', () => {
    expect(changedAnswers({ a: '1', b: '2', c: true }, { a: '1', b: '3', d: 'x' })).toEqual({ b: '3', d: 'x', c: '' });
    expect(changedAnswers({ a: '1' }, { a: '1' })).toEqual({});
  });
});
