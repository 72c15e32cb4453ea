import { describe, expect, it } from 'vitest';
import { isLabelKey, isOfferedChoice, labelledAsCatalogue, shownLabel, withCatalogueLabels } from './choiceLabels';
import { checkSentAnswers, sentAnswerMessages, storableAnswers } from './sentAnswers';

describe('labels written from the catalogue (issue 28)', () => {
  it("writes a choice's label from its option, whatever label was sent", () => {
    expect(withCatalogueLabels({ country: 'USA', country_desc: 'France' })).toEqual({ country: 'USA', country_desc: 'United States' });
    expect(withCatalogueLabels({ citizenship_type: 'N' }).citizenship_type_desc).toBeTruthy();
  });

  it('takes the label of a conditional list (a state of the country answered)', () => {
    expect(withCatalogueLabels({ state: 'Ontario', state_desc: 'Texas' })).toEqual({ state: 'Ontario', state_desc: 'Ontario' });
  });

  it('drops a label sent without its choice, clears the label of a cleared choice, leaves other answers alone', () => {
    expect(withCatalogueLabels({ country_desc: 'France', first_name: 'Ana' })).toEqual({ first_name: 'Ana' });
    expect(withCatalogueLabels({ country: '' })).toEqual({ country: '', country_desc: '' });
    expect(withCatalogueLabels({ country: null })).toEqual({ country: null, country_desc: '' });
  });

  it('knows label keys and offered choices', () => {
    expect(isLabelKey('country_desc')).toBe(true);
    expect(isLabelKey('first_name')).toBe(false);
    expect(isLabelKey('hs_name_desc')).toBe(false);
    expect(isOfferedChoice('country', 'USA')).toBe(true);
    expect(isOfferedChoice('country', '')).toBe(true);
    expect(isOfferedChoice('country', 'Atlantis')).toBe(false);
    expect(isOfferedChoice('first_name', 'Atlantis')).toBe(true);
  });

  it('refuses a choice that is not offered, with its message', () => {
    expect(checkSentAnswers({ country: 'Atlantis' })).toEqual({ country: [sentAnswerMessages.notAChoice] });
    expect(sentAnswerMessages.notAChoice).toBe('This answer is not one of the choices.');
  });

  it("stores a visitor's or a new account's answers with the catalogue's labels, dropping choices not offered", () => {
    expect(storableAnswers({ country: 'USA', country_desc: 'France', citizenship: 'Atlantis', first_name: 'Ana' })).toEqual({
      country: 'USA',
      country_desc: 'United States',
      first_name: 'Ana',
    });
  });
});

describe('answers already labelled as the catalogue labels them are stored as sent (issue 33)', () => {
  it.each([
    ['a page\'s save: each choice with its label, other answers', { country: 'USA', country_desc: 'United States', first_name: 'Ann' }, true],
    ['a cleared choice with its label cleared', { country: '', country_desc: '' }, true],
    ['no choice at all', { first_name: 'Ann' }, true],
    ['a choice without its label', { country: 'USA' }, false],
    ['a label not the catalogue\'s', { country: 'USA', country_desc: 'France' }, false],
    ['a label without its choice', { country_desc: 'United States', first_name: 'Ann' }, false],
    ['a cleared choice with a label left', { country: '', country_desc: 'United States' }, false],
  ] as const)('%s: %s', (_, sent, asSent) => {
    expect(labelledAsCatalogue(sent)).toBe(asSent);
    // Exactly when the catalogue's labels would change nothing.
    if (asSent) expect(withCatalogueLabels(sent)).toEqual(sent);
    else expect(withCatalogueLabels(sent)).not.toEqual(sent);
  });
});

describe('labels shown from stored answers (issue 28)', () => {
  it("shows the catalogue's label, whatever was stored with it; a value no longer offered keeps its stored label", () => {
    expect(shownLabel('country', { country: 'USA', country_desc: 'France' })).toBe('United States');
    expect(shownLabel('country', { country: 'XXX', country_desc: 'Old Country' })).toBe('Old Country');
    expect(shownLabel('country', { country: '' })).toBe('');
    expect(shownLabel('first_name', { first_name: 'Ann' })).toBeNull();
  });
});
