import { describe, expect, it } from 'vitest';
import { completeApplication } from '../catalogue/completeApplication';
import { checkSentAnswers, sentAnswerMessages, storableAnswers, withinStoredBound } from './sentAnswers';
import { STORED_ANSWERS_MAX_CHARS } from './storedBound';

describe('checkSentAnswers', () => {
  it('accepts a complete application and clearing values', () => {
    expect(checkSentAnswers({ ...completeApplication, first_name: '', last_name: null })).toEqual({});
  });

  it('refuses keys outside the form, a document mark, a text area past its limit and a checkbox that is not yes/no', () => {
    expect(
      checkSentAnswers({
        not_a_question: 'x',
        student_upload_card: 'ANSWERED',
        conviction_comment: 'x'.repeat(1501),
        legal_agree: 'yes',
        first_name: 'y'.repeat(256),
      }),
    ).toEqual({
      not_a_question: [sentAnswerMessages.unknown],
      student_upload_card: [sentAnswerMessages.serverWritten],
      conviction_comment: [sentAnswerMessages.tooLong(1500)],
      legal_agree: [sentAnswerMessages.notYesNo],
      first_name: [sentAnswerMessages.tooLong(255)],
    });
  });

  it('names at most 20 refused keys: a body of made-up keys is not echoed back (issue 29, item 10)', () => {
    const madeUp = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`made_up_${i}`, 'x']));
    const errors = checkSentAnswers({ ...madeUp, first_name: 'y'.repeat(256) });
    expect(Object.keys(errors)).toHaveLength(20);
    expect(Object.keys(errors).every((key) => key.startsWith('made_up_'))).toBe(true);
    // What may be stored is still decided on every key.
    expect(storableAnswers({ ...madeUp, first_name: 'Ann' })).toEqual({ first_name: 'Ann' });
  });

  it('keeps of sent answers only what may be stored, dropping the rest and empty values', () => {
    expect(
      storableAnswers({ first_name: 'Jordan', last_name: '', city: null, not_a_question: 'x', student_upload_card: 'ANSWERED', conviction_comment: 'x'.repeat(1501) }),
    ).toEqual({ first_name: 'Jordan' });
  });

  it('bounds the stored application', () => {
    expect(withinStoredBound(JSON.stringify(completeApplication))).toBe(true);
    expect(withinStoredBound(JSON.stringify({ essay: 'x'.repeat(STORED_ANSWERS_MAX_CHARS) }))).toBe(false);
  });
});

describe('answers sent with the answer their list follows (issue 48)', () => {
  it('refuses a state of another country sent with the country, and takes a state sent alone (checked at submit)', () => {
    expect(checkSentAnswers({ state: 'Ontario', country: 'USA' })).toEqual({ state: [sentAnswerMessages.notAChoice] });
    expect(checkSentAnswers({ hs_state: 'Quebec', hs_country: 'USA' })).toEqual({ hs_state: [sentAnswerMessages.notAChoice] });
    expect(checkSentAnswers({ state: 'Ontario', country: 'CAN' })).toEqual({});
    expect(checkSentAnswers({ state: 'Colorado', country: 'USA' })).toEqual({});
    expect(checkSentAnswers({ state: '', country: 'FRA' })).toEqual({});
    expect(checkSentAnswers({ state: 'Ontario' })).toEqual({});
  });
});
