import { describe, expect, it } from 'vitest';
import { answerText, formatAnswersBase, parseAnswersBase } from './answersBase';

describe('the answers base header (issue 28)', () => {
  it('writes what the page knew of each changed answer, escaped, and reads it back', () => {
    const header = formatAnswersBase([
      ['first_name', { text: 'Zoë, Jr.=1' }],
      ['city', { text: '' }],
      ['additional_info_essay', { sha256: '0123456789abcdef' }],
    ]);
    expect(header).toBe('first_name=Zo%C3%AB%2C%20Jr.%3D1,city=,additional_info_essay=#0123456789abcdef');
    expect(parseAnswersBase(header)?.known).toEqual(
      new Map<string, unknown>([
        ['first_name', { text: 'Zoë, Jr.=1' }],
        ['city', { text: '' }],
        ['additional_info_essay', { sha256: '0123456789abcdef' }],
      ]),
    );
  });

  it('carries the revision the page knows, first', () => {
    const header = formatAnswersBase([['city', { text: 'Denver' }]], 17);
    expect(header).toBe('_rev=17,city=Denver');
    expect(parseAnswersBase(header)).toEqual({ revision: 17, known: new Map([['city', { text: 'Denver' }]]), alsoKnown: new Map() });
    expect(parseAnswersBase('_rev=3')).toEqual({ revision: 3, known: new Map(), alsoKnown: new Map() });
  });

  it('reads an empty header as no entries, and refuses what is not one', () => {
    expect(parseAnswersBase('')).toEqual({ revision: null, known: new Map(), alsoKnown: new Map() });
    for (const bad of ['First=x', 'first_name', 'a=%E0%A4%A', 'a=#xyz', 'a=#0123', 'a=1,,b=2', '_rev=x', '_rev=-1', '_rev=1234567890', 'a=1|2|3|4|5', 'a=|#xyz', '_rev=1|2']) expect(parseAnswersBase(bad), bad).toBeNull();
  });

  it('carries other values the account may hold instead: saves a closing page sent (issue 48)', () => {
    const header = formatAnswersBase([
      ['accommodations', { text: 'Extra time' }, { text: 'Extra time on tests|rooms' }],
      ['additional_info_essay', { sha256: '0123456789abcdef' }, { sha256: 'fedcba9876543210' }],
      ['city', { text: '' }],
    ]);
    expect(header).toBe('accommodations=Extra%20time|Extra%20time%20on%20tests%7Crooms,additional_info_essay=#0123456789abcdef|#fedcba9876543210,city=');
    const parsed = parseAnswersBase(header)!;
    expect(parsed.known).toEqual(
      new Map<string, unknown>([
        ['accommodations', { text: 'Extra time' }],
        ['additional_info_essay', { sha256: '0123456789abcdef' }],
        ['city', { text: '' }],
      ]),
    );
    expect(parsed.alsoKnown).toEqual(
      new Map<string, unknown>([
        ['accommodations', [{ text: 'Extra time on tests|rooms' }]],
        ['additional_info_essay', [{ sha256: 'fedcba9876543210' }]],
      ]),
    );
    expect(parseAnswersBase('city=a|b|c|d')?.alsoKnown.get('city')).toEqual([{ text: 'b' }, { text: 'c' }, { text: 'd' }]);
  });

  it('compares answers by their text', () => {
    expect([answerText(null), answerText(undefined), answerText(true), answerText(3), answerText('x')]).toEqual(['', '', 'true', '3', 'x']);
  });
});
