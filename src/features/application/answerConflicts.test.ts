// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it } from 'vitest';
import { newerToShow, readConflict, resolveConflicts, shownAnswer } from './answerConflicts';

describe('answers changed on both sides (issue 28)', () => {
  const sent = { first_name: 'Jo', country: 'USA', country_desc: 'United States', city: 'Denver' };
  const body = { code: 'ANSWERS_CHANGED', conflicts: ['first_name', 'country'], current: { first_name: 'Jordan', country: 'CAN', country_desc: 'Canada', city: 'Boulder' } };

  it('reads the conflicts with both answers as shown, and the newer answers the page had not changed', () => {
    const { conflicts, newer } = readConflict(body, sent);
    expect(conflicts).toEqual([
      { key: 'first_name', mine: 'Jo', mineShown: 'Jo', theirs: { first_name: 'Jordan' }, theirsShown: 'Jordan' },
      { key: 'country', mine: 'USA', mineShown: 'United States', theirs: { country: 'CAN', country_desc: 'Canada' }, theirsShown: 'Canada' },
    ]);
    expect(newer).toEqual({ city: 'Boulder' });
  });

  it.each([
    ['keeps mine for both', { first_name: 'mine', country: 'mine' }, {}],
    ['takes the newer country', { first_name: 'mine', country: 'theirs' }, { country: 'CAN', country_desc: 'Canada' }],
    ['takes both', { first_name: 'theirs', country: 'theirs' }, { first_name: 'Jordan', country: 'CAN', country_desc: 'Canada' }],
  ] as const)('%s: the account’s answers become the base, the taken ones are shown', (_name, choices, take) => {
    const resolved = resolveConflicts(readConflict(body, sent).conflicts, choices);
    expect(resolved.known).toEqual({ first_name: 'Jordan', country: 'CAN', country_desc: 'Canada' });
    expect(resolved.take).toEqual(take);
  });

  it('shows a newer answer only where the page still shows what it sent', () => {
    expect(newerToShow({ city: 'Boulder', zip: '80302' }, { city: 'Denver', zip: '80204' }, { city: 'Denver', zip: '8020' })).toEqual({ city: 'Boulder' });
  });

  it.each([
    [{ legal_agree: true }, 'legal_agree', 'Checked'],
    [{ legal_agree: false }, 'legal_agree', 'Not checked'],
    [{}, 'city', '(no answer)'],
    [{ city: '' }, 'city', '(no answer)'],
    [{ country: 'CAN', country_desc: 'Canada' }, 'country', 'Canada'],
  ])('shows %j under %s as %s', (answers, key, shown) => {
    expect(shownAnswer(key, answers)).toBe(shown);
  });
});
