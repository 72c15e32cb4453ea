import { describe, expect, it } from 'vitest';
import { DEFAULT_REVIEW_FORM } from './reviews';
import { NUMERIC_ANSWERS, compositeDraftErrors, compositeFormulaErrors, scoreText, weightOf, compositeMissing, compositeOf, scoreMeasureLabel, scoreMeasureOf, scoreMessages, tallyOf, termLabel, termUnknown, type CompositeTerm } from './scores';

const review = (ratings: Record<string, number>, recommendation: string) => ({ ratings: Object.entries(ratings).map(([scale, rating]) => ({ scale, rating })), recommendation });

describe('the texts of the committee scores (issue 51 §1)', () => {
  it('says each as written', () => {
    expect(scoreMessages).toEqual({
      termRepeated: 'Each part of the formula can be weighed once.',
      weightZero: 'A weight of 0 adds nothing: remove the part instead.',
      noFormula: 'No composite score yet: an administrator defines its formula.',
      noReviews: 'No reviews yet.',
      nameRequired: 'Choose what this part weighs.',
      weightNumber: 'Enter a weight from −100 to 100, for example 2 or 0.5.',
    });
    expect(termUnknown({ source: 'scale', name: 'Music', weight: 1 })).toBe('Music is not a scale of the review form.');
    expect(termUnknown({ source: 'recommendation', name: 'Maybe', weight: 1 })).toBe('Maybe is not a recommendation of the review form.');
    expect(termUnknown({ source: 'answer', name: 'sat', weight: 1 })).toBe('sat is not an answer a formula can weigh.');
    expect(compositeMissing(['Essay (mean rating)', 'GPA on a 4.0 scale'])).toBe('Not computed: no Essay (mean rating), GPA on a 4.0 scale.');
    expect([termLabel({ source: 'scale', name: 'Essay' }), termLabel({ source: 'recommendation', name: 'Admit' }), termLabel({ source: 'answer', name: 'gpa_on_4' })]).toEqual([
      'Essay (mean rating)',
      'Admit (share of reviews)',
      'GPA on a 4.0 scale',
    ]);
  });
});

describe('a composite formula against the review form', () => {
  const term = (source: CompositeTerm['source'], name: string, weight = 1): CompositeTerm => ({ source, name, weight });
  it.each<[string, CompositeTerm[], Record<string, string[]>]>([
    ['every kind of term the form and the answers have', [term('scale', 'Academics', 2), term('recommendation', 'Admit'), term('answer', 'gpa_on_4', 0.5)], {}],
    ['a negative weight (a penalty)', [term('recommendation', 'Deny', -3)], {}],
    ['no term at all (no composite)', [], {}],
    ['a scale the form does not have', [term('scale', 'Music')], { 'terms.0': ['Music is not a scale of the review form.'] }],
    ['a recommendation the form does not have', [term('recommendation', 'Maybe')], { 'terms.0': ['Maybe is not a recommendation of the review form.'] }],
    ['an answer that is not a number', [term('answer', 'first_name')], { 'terms.0': ['first_name is not an answer a formula can weigh.'] }],
    ['a term weighed twice', [term('scale', 'Essay'), term('scale', 'Essay', 2)], { 'terms.1': ['Each part of the formula can be weighed once.'] }],
    ['a weight of 0', [term('scale', 'Essay', 0)], { 'terms.0': ['A weight of 0 adds nothing: remove the part instead.'] }],
  ])('%s', (_case, terms, errors) => {
    expect(compositeFormulaErrors({ terms }, DEFAULT_REVIEW_FORM)).toEqual(errors);
  });
});

describe('what the reviews add up to', () => {
  it('means each scale over the reviews that rated it, and counts each recommendation', () => {
    expect(tallyOf([review({ Academics: 3, Essay: 4 }, 'Admit'), review({ Academics: 2, Essay: 3 }, 'Admit'), review({ Academics: 4 }, 'Waitlist')])).toEqual({
      reviews: 3,
      means: { Academics: 3, Essay: 3.5 },
      recommendations: { Admit: 2, Waitlist: 1 },
    });
    expect(tallyOf([])).toEqual({ reviews: 0, means: {}, recommendations: {} });
  });
});

describe('the composite score', () => {
  const answer = { hs_gpa: '3.8', gpa_scale: '4.0' };
  const formula = {
    terms: [
      { source: 'scale' as const, name: 'Academics', weight: 2 },
      { source: 'recommendation' as const, name: 'Admit', weight: 3 },
      { source: 'answer' as const, name: 'gpa_on_4', weight: 1 },
    ],
  };
  it('is the weighted sum, each part shown with what it weighed and added', () => {
    const tally = tallyOf([review({ Academics: 3 }, 'Admit'), review({ Academics: 4 }, 'Deny')]);
    expect(compositeOf(formula, tally, answer)).toEqual({
      score: 2 * 3.5 + 3 * 0.5 + 3.8,
      reason: null,
      parts: [
        { source: 'scale', name: 'Academics', weight: 2, value: 3.5, points: 7 },
        { source: 'recommendation', name: 'Admit', weight: 3, value: 0.5, points: 1.5 },
        { source: 'answer', name: 'gpa_on_4', weight: 1, value: 3.8, points: 3.8 },
      ],
    });
  });

  it('keeps four places, so a mean of thirds sums the same every time', () => {
    const tally = tallyOf([review({ Academics: 1 }, 'Admit'), review({ Academics: 1 }, 'Admit'), review({ Academics: 2 }, 'Admit')]);
    expect(compositeOf({ terms: [formula.terms[0]!] }, tally, answer).score).toBe(2.6667);
  });

  it.each<[string, Parameters<typeof compositeOf>, string]>([
    ['no formula', [{ terms: [] }, tallyOf([review({ Academics: 3 }, 'Admit')]), answer], 'No composite score yet: an administrator defines its formula.'],
    ['no review yet, though the GPA alone could be weighed', [{ terms: [formula.terms[2]!] }, tallyOf([]), answer], 'No reviews yet.'],
    ['a scale no review rated', [formula, tallyOf([review({ Essay: 3 }, 'Admit')]), answer], 'Not computed: no Academics (mean rating).'],
    ['no GPA given', [formula, tallyOf([review({ Academics: 3 }, 'Admit')]), {}], 'Not computed: no GPA on a 4.0 scale.'],
  ])('is not computed with %s, and says why', (_case, args, reason) => {
    expect(compositeOf(...args)).toMatchObject({ score: null, reason });
  });
});

describe('numeric answers', () => {
  it.each<[Record<string, unknown>, number | null, number | null]>([
    [{ hs_gpa: '3.85', gpa_scale: '4.0' }, 3.85, 3.85],
    [{ hs_gpa: '4.5', gpa_scale: '5.0' }, 4.5, 3.6],
    [{ hs_gpa: '90', gpa_scale: '100' }, 90, 3.6],
    [{ hs_gpa: '9', gpa_scale: 'Other', gpa_scale_other: '10' }, 9, 3.6],
    [{ hs_gpa: '3.9 weighted', gpa_scale: '4.0' }, 3.9, 3.9],
    // Above its own scale: a typing slip, not a GPA to bring to 4.0.
    [{ hs_gpa: '45', gpa_scale: '4.0' }, 45, null],
    [{ hs_gpa: '3.5' }, 3.5, null],
    [{ hs_gpa: 'A-', gpa_scale: '4.0' }, null, null],
    [{}, null, null],
  ])('%o reads as %s, and %s on a 4.0 scale', (answer, raw, onFour) => {
    expect(NUMERIC_ANSWERS.hs_gpa!.valueOf(answer)).toBe(raw);
    const converted = NUMERIC_ANSWERS.gpa_on_4!.valueOf(answer);
    expect(converted === null ? null : Math.round(converted * 100) / 100).toBe(onFour);
  });
});

describe("the list's score measures", () => {
  it.each([
    ['composite', { kind: 'composite' }, 'Composite score'],
    ['reviews', { kind: 'reviews' }, 'Reviews'],
    ['mean:Academics', { kind: 'mean', name: 'Academics' }, 'Academics (mean)'],
    ['recommended:Admit', { kind: 'recommended', name: 'Admit' }, 'Admit (reviews)'],
    ['mean:Two: words', { kind: 'mean', name: 'Two: words' }, 'Two: words (mean)'],
  ] as const)('%s', (text, measure, label) => {
    expect(scoreMeasureOf(text)).toEqual(measure);
    expect(scoreMeasureLabel(measure)).toBe(label);
  });
  it.each(['', 'mean', 'mean:', 'median:Essay', 'Composite'])('%j is not one', (text) => {
    expect(scoreMeasureOf(text)).toBeNull();
  });
});

describe('a formula as typed', () => {
  it.each<[string, number | null]>([
    ['2', 2],
    [' 0.5 ', 0.5],
    ['.5', 0.5],
    ['-1', -1],
    ['−1.25', -1.25],
    ['100', 100],
    ['100.5', null],
    ['-101', null],
    ['', null],
    ['two', null],
    ['1e2', null],
    ['2,5', null],
  ])('weight %j reads as %s', (text, weight) => {
    expect(weightOf(text)).toBe(weight);
  });

  it('names each part that has nothing chosen or no weight, before it is sent', () => {
    expect(compositeDraftErrors([{ name: 'Essay', weight: '1' }, { name: '', weight: 'x' }, { name: 'Admit', weight: '' }])).toEqual({
      'terms.1': ['Choose what this part weighs.', 'Enter a weight from −100 to 100, for example 2 or 0.5.'],
      'terms.2': ['Enter a weight from −100 to 100, for example 2 or 0.5.'],
    });
  });

  it('shows a score to two decimals at most, with a true minus sign', () => {
    expect([12.1, 3.3333, 10, -1.5].map(scoreText)).toEqual(['12.1', '3.33', '10', '−1.5']);
  });
});
