import { describe, expect, it } from 'vitest';
import { holds, operators, type Rule } from './conditions';

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
