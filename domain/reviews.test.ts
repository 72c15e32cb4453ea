import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REVIEW_FORM,
  assignmentSkipped,
  binNotEmpty,
  planAssignments,
  ratingRequired,
  reviewErrors,
  reviewFormErrors,
  reviewMessages,
  reviewSignedText,
  reviewsVisible,
  trimmedForm,
} from './reviews';

describe('the review form (issue 30)', () => {
  it('refuses repeated scale names, repeated labels within a scale and repeated recommendations, whatever their case or spaces', () => {
    expect(reviewFormErrors(DEFAULT_REVIEW_FORM)).toEqual({});
    expect(
      reviewFormErrors({
        scales: [
          { name: 'Essay', labels: ['Weak', 'weak '] },
          { name: ' essay', labels: ['1', '2'] },
        ],
        recommendations: ['Admit', 'admit'],
      }),
    ).toEqual({
      scales: ['Each rating scale needs a name of its own.', 'Each point of a scale needs a label of its own.'],
      recommendations: ['Each recommendation needs a name of its own.'],
    });
  });

  it('keeps names and labels without their surrounding spaces', () => {
    expect(trimmedForm({ scales: [{ name: ' Essay ', labels: [' 1 ', '2'] }], recommendations: [' Admit'] })).toEqual({ scales: [{ name: 'Essay', labels: ['1', '2'] }], recommendations: ['Admit'] });
  });
});

describe('a review against its form', () => {
  const form = { scales: [{ name: 'Essay', labels: ['1', '2', '3'] }, { name: 'Academics', labels: ['Low', 'High'] }], recommendations: ['Admit', 'Deny'] };
  it.each([
    ['complete', { ratings: { Essay: 3, Academics: 1 }, recommendation: 'Admit', comment: '' }, {}],
    ['a scale unrated', { ratings: { Essay: 2 }, recommendation: 'Deny', comment: '' }, { 'ratings.Academics': ['Rate Academics.'] }],
    ['a rating off the scale', { ratings: { Essay: 4, Academics: 0 }, recommendation: 'Admit', comment: '' }, { 'ratings.Essay': ['Choose one of the points of this scale.'], 'ratings.Academics': ['Choose one of the points of this scale.'] }],
    ['a scale no longer on the form', { ratings: { Essay: 1, Academics: 1, Interview: 2 }, recommendation: 'Admit', comment: '' }, { 'ratings.Interview': ['This scale is not on the review form: reload the page to read the current form.'] }],
    ['no recommendation', { ratings: { Essay: 1, Academics: 1 }, recommendation: '', comment: '' }, { recommendation: ['Choose a recommendation.'] }],
    ['a recommendation not on the form', { ratings: { Essay: 1, Academics: 1 }, recommendation: 'Maybe', comment: '' }, { recommendation: ['Choose a recommendation.'] }],
  ])('%s', (_, review, errors) => {
    expect(reviewErrors(form, review)).toEqual(errors);
  });
});

describe('blind reading', () => {
  it.each([
    [false, false, 'reader', true],
    [true, false, 'reader', false],
    [true, true, 'reader', true],
    [true, false, 'decider', true],
    [true, false, 'admin', true],
  ] as const)('blind %s, own review submitted %s, %s: sees the others %s', (blind, ownReviewSubmitted, role, visible) => {
    expect(reviewsVisible({ blind, ownReviewSubmitted, role })).toBe(visible);
  });
});

describe('sharing applications out among readers', () => {
  const none = new Set<string>();
  const ids = (plan: ReturnType<typeof planAssignments>) => plan.assigned.map((a) => `${a.applicationId}→${a.readerId}`);

  it.each([
    ['one reader: by hand', [{ id: 'a1', excluded: none }, { id: 'a2', excluded: none }], [{ id: 'r1', open: 7 }], ['a1→r1', 'a2→r1'], []],
    ['even loads: in turn, first listed first', [{ id: 'a1', excluded: none }, { id: 'a2', excluded: none }, { id: 'a3', excluded: none }], [{ id: 'r1', open: 0 }, { id: 'r2', open: 0 }], ['a1→r1', 'a2→r2', 'a3→r1'], []],
    ['uneven loads: the lighter reader first until they even out', [{ id: 'a1', excluded: none }, { id: 'a2', excluded: none }, { id: 'a3', excluded: none }], [{ id: 'r1', open: 2 }, { id: 'r2', open: 0 }], ['a1→r2', 'a2→r2', 'a3→r1'], []],
    ['a conflict skips that reader', [{ id: 'a1', excluded: new Set(['r1']) }, { id: 'a2', excluded: none }], [{ id: 'r1', open: 0 }, { id: 'r2', open: 0 }], ['a1→r2', 'a2→r1'], []],
    ['every reader excluded: skipped', [{ id: 'a1', excluded: new Set(['r1', 'r2']) }, { id: 'a2', excluded: none }], [{ id: 'r1', open: 0 }, { id: 'r2', open: 0 }], ['a2→r1'], ['a1']],
    ['no readers', [{ id: 'a1', excluded: none }], [], [], ['a1']],
  ])('%s', (_, applications, readers, assigned, skipped) => {
    const plan = planAssignments(applications, readers);
    expect(ids(plan)).toEqual(assigned);
    expect(plan.skipped).toEqual(skipped);
  });
});

describe('the texts', () => {
  it('says each fault exactly', () => {
    expect(ratingRequired('Essay')).toBe('Rate Essay.');
    expect(binNotEmpty('First read', 1)).toBe('First read still holds 1 application: move it to another bin first.');
    expect(binNotEmpty('Committee', 3)).toBe('Committee still holds 3 applications: move them to another bin first.');
    expect(reviewMessages.alreadyReviewed).toBe('You have already submitted your review of this application. A review is signed as submitted and is not changed; add a note instead.');
    expect(reviewMessages.writeReviewFirst).toBe('This bin is read blind: the other reviews are shown once you submit yours.');
    expect(assignmentSkipped.conflicted).toBe('Every reader chosen has declared a conflict of interest with it or already reviewed or holds it.');
    expect(assignmentSkipped.held('first@example.edu')).toBe('first@example.edu holds it and has not reviewed it yet: choose “Give it to a second reader too” to add another.');
  });

  it('signs every word of a review: a changed comment, rating or time makes another text', () => {
    const review = { applicationId: 'a', reviewerEmail: 'r@example.edu', formVersion: 2, ratings: [{ scale: 'Essay', rating: 3, label: '3' }], recommendation: 'Admit', comment: 'Good.', submittedAt: '2027-01-01T00:00:00.000Z' };
    const text = reviewSignedText(review);
    expect(reviewSignedText({ ...review, comment: 'Good!' })).not.toBe(text);
    expect(reviewSignedText({ ...review, ratings: [{ scale: 'Essay', rating: 2, label: '3' }] })).not.toBe(text);
    expect(reviewSignedText({ ...review, submittedAt: '2027-01-01T00:00:01.000Z' })).not.toBe(text);
    expect(reviewSignedText({ ...review })).toBe(text);
  });
});
