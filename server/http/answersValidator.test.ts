import { describe, expect, it } from 'vitest';
import { signedInCookie, testApp } from '../testing/app';
import { sentAnswerMessages } from '../../domain/rules/sentAnswers';
import { loadContract } from './contract';
import { fastCheckedBodies, flatMapBounds, plainlyWithin } from './answersValidator';

const schemas = (loadContract().components as { schemas: Record<string, Record<string, unknown>> }).schemas;
/** StudentAnswers with its references written out, as the server's routes have it. */
const studentAnswers = { ...schemas.StudentAnswers, propertyNames: schemas.AnswerKey, additionalProperties: schemas.AnswerValue };
const bounds = flatMapBounds(studentAnswers)!;

describe('the one-pass check of a body of answers (issue 33)', () => {
  it('reads its bounds from the contract', () => {
    expect(bounds).toMatchObject({ maxKeys: 2000, keyMax: 80, valueMax: 7000 });
    expect(flatMapBounds({ ...studentAnswers, additionalProperties: { type: 'string' } })).toBeNull();
  });

  it.each([
    ['a page\'s save', { first_name: 'Ann', optin_sms_ind: true, middle_name: null, gpa: 3.5, essay: 'é'.repeat(7000) }, true],
    ['no answers', {}, true],
    ['a key out of the pattern', { First_name: 'Ann' }, false],
    ['a key too long', { [`a${'b'.repeat(80)}`]: 'x' }, false],
    ['a text past the bound in UTF-16 units (the validator counts code points)', { essay: '🎓'.repeat(3501) }, false],
    ['a list', { first_name: ['Ann'] }, false],
    ['an object', { first_name: { a: 1 } }, false],
    ['too many keys', Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`k${i}`, 'x'])), false],
    ['not an object', ['Ann'], false],
  ] as const)('%s', (_, body, plain) => {
    expect(plainlyWithin(bounds, body)).toBe(plain);
  });

  it('checks the save\'s body; what it does not pass plainly gets the validator\'s messages as before', async () => {
    const t = await testApp({});
    try {
      const cookie = await signedInCookie(t);
      const put = (payload: unknown) => t.app.inject({ method: 'PUT', url: '/api/answer', payload: payload as object, headers: { cookie } });
      expect((await put({ first_name: 'Ann' })).statusCode).toBe(200);
      expect(fastCheckedBodies).toContain('PUT /api/answer');
      // Past the bound in UTF-16 units, within it in code points: the validator lets it through to the form's own check.
      expect((await put({ first_name: '🎓'.repeat(3501) })).json().errors).toEqual({ first_name: [sentAnswerMessages.tooLong(255)] });
      const refused = await put({ first_name: { a: 1 } });
      expect(refused.statusCode).toBe(400);
      expect(Object.keys(refused.json().errors)).toEqual(['first_name']);
    } finally {
      await t.close();
    }
  });
});
