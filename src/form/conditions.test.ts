import { describe, expect, it } from 'vitest';
import { clearedAnswers, holds, keysToClear, operators, pickBranch, type Branch, type Rule } from './conditions';

const ctx = { country: 'USA', age: '17', gpa: '3.9', empty: '', agreed: true, none: null, count: 2 };
const rule = (valueKey: string, operator: Rule['operator'], target?: Rule['target']): Rule => ({ valueKey, operator, target });

describe('the ten operators', () => {
  it('are exactly those of the spec', () => {
    expect(operators).toEqual(['notEquals', 'equals', 'lt', 'lte', 'gt', 'gte', 'notAnswered', 'answered', 'in', 'notIn']);
  });

  it.each([
    [rule('country', 'equals', 'USA'), true],
    [rule('country', 'equals', 'CAN'), false],
    [rule('country', 'notEquals', 'CAN'), true],
    [rule('country', 'notEquals', 'USA'), false],
    [rule('age', 'lt', 18), true],
    [rule('age', 'lt', 17), false],
    [rule('age', 'lte', 17), true],
    [rule('age', 'gt', 9), true], // numeric, not text: '17' > '9'
    [rule('gpa', 'gte', '3.9'), true],
    [rule('gpa', 'gt', '3.9'), false],
    [rule('empty', 'lt', 5), false], // an unanswered value is never compared
    [rule('count', 'gte', 2), true],
    [rule('empty', 'notAnswered'), true],
    [rule('none', 'notAnswered'), true],
    [rule('missing', 'notAnswered'), true],
    [rule('country', 'notAnswered'), false],
    [rule('country', 'answered'), true],
    [rule('agreed', 'answered'), true],
    [rule('empty', 'answered'), false],
    [rule('country', 'in', ['USA', 'CAN']), true],
    [rule('country', 'in', ['MEX']), false],
    [rule('missing', 'in', ['', undefined]), false],
    [rule('country', 'notIn', ['MEX']), true],
    [rule('country', 'notIn', ['USA', 'CAN']), false],
  ])('%j → %s', (r, expected) => {
    expect(holds(r, ctx)).toBe(expected);
  });
});

describe('groups: the first true branch wins', () => {
  const branches: Branch[] = [
    { rules: [rule('country', 'equals', 'USA')], keys: ['state', 'zip'] },
    { rules: [rule('country', 'equals', 'CAN')], keys: ['state', 'postal_code'] },
    { rules: [], keys: ['province_text'] },
  ];

  it('picks the first branch whose rules hold', () => {
    expect(pickBranch(branches, { country: 'USA' })).toBe(0);
    expect(pickBranch(branches, { country: 'CAN' })).toBe(1);
    expect(pickBranch(branches, { country: 'FRA' })).toBe(2);
  });

  it('clears the keys of the other branches, with their _desc companions, unless the shown one keeps them', () => {
    expect(keysToClear(branches, { country: 'USA' }).sort()).toEqual(
      ['postal_code', 'postal_code_desc', 'province_text', 'province_text_desc'].sort(),
    );
    expect(keysToClear(branches, { country: 'FRA' })).toContain('state_desc');
  });

  it('turns keys to clear into empty answers only where something is stored', () => {
    expect(clearedAnswers(['state', 'state_desc', 'zip', 'flag'], { state: 'Colorado', state_desc: 'Colorado', flag: false })).toEqual({
      state: '',
      state_desc: '',
      flag: '',
    });
  });
});
