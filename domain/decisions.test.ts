import { describe, expect, it } from 'vitest';
import { decisionLetter, decisionMessages, decisionNotice, decisionState, DECISIONS, defaultLetter, defaultReplyBy, letterTemplateProblem, REPLY_BY, replyClosed, replyDateText, replyOpen } from './decisions';

describe('decisionState', () => {
  const now = new Date('2027-03-15T16:00:00.000Z');
  it.each([
    [null, 'provisional'],
    [new Date('2027-03-15T16:00:00.001Z'), 'scheduled'],
    [new Date('2027-03-15T16:00:00.000Z'), 'released'],
    [new Date('2027-03-01T00:00:00.000Z'), 'released'],
  ] as const)('release at %s → %s', (releaseAt, state) => expect(decisionState(releaseAt, now)).toBe(state));
});

describe('replyOpen', () => {
  it.each([
    ['2027-05-01T23:59:59.999Z', '2027-05-01', true],
    ['2027-05-02T00:00:00.000Z', '2027-05-01', false],
    ['2027-05-02T00:00:00.000Z', '2028-05-01', true],
  ])('at %s, replying by %s → %s', (at, replyBy, open) => expect(replyOpen(new Date(at), replyBy)).toBe(open));
});

describe('each entry term’s reply date (issue 51 §2)', () => {
  it.each([
    ['Fall 2027', '2027-05-01'],
    ['Fall 2028', '2028-05-01'],
    ['Spring 2029', '2028-12-01'],
    ['summer 2028', '2028-05-01'],
    ['Winter 2028', REPLY_BY],
    [undefined, REPLY_BY],
  ])('%s: %s until the office sets its own', (term, replyBy) => expect(defaultReplyBy(term)).toBe(replyBy));

  it('says a reply date as letters and pages do, and why a late reply is refused', () => {
    expect(replyDateText('2028-05-01')).toBe('May 1, 2028');
    expect(replyClosed('2028-12-01')).toBe('The reply date (December 1, 2028) has passed. Please contact the admissions office.');
  });

  it('merges the term’s reply date into the letter: a Fall 2028 admit is not told May 1, 2027', () => {
    expect(decisionLetter('admit', { first_name: 'Mei', entry_term: 'Fall 2028' })).toContain('in the portal by May 1, 2028.');
    expect(decisionLetter('admit', { first_name: 'Mei', entry_term: 'Fall 2028' }, undefined, '2028-04-15')).toContain('in the portal by April 15, 2028.');
  });
});

describe('decisionLetter', () => {
  it('merges the applicant’s answers into the template of each decision', () => {
    const answers = { first_name: ' Jordan ', last_name: 'Rivera', entry_term: 'Fall 2027' };
    expect(decisionLetter('admit', answers)).toBe(
      'Dear Jordan,\n\nCongratulations! I am delighted to offer you admission to Northfield University for Fall 2027. Your application showed us a student who will thrive here, and we would be proud to have you join us.\n\nPlease accept or decline this offer in the portal by May 1, 2027.\n\nSincerely,\nOffice of Admissions',
    );
    for (const decision of DECISIONS) {
      const letter = decisionLetter(decision, answers);
      expect(letter, decision).toMatch(/^Dear Jordan,\n\n/);
      expect(letter, decision).toContain('Fall 2027');
      expect(letter, decision).not.toMatch(/\{\w+\}/);
    }
  });

  it('reads well without the answers it merges', () => {
    expect(decisionLetter('deny', {})).toMatch(/^Dear Applicant,\n\nThank you for applying to Northfield University\. After careful review, we are unable to offer you admission for the coming year\./);
  });
});

describe('letterTemplateProblem', () => {
  it.each([
    ['Dear {first_name}, welcome to {entry_term}.', null],
    ['No merge fields at all.', null],
    ['', 'Write the letter, or go back to the built-in one.'],
    [' \n ', 'Write the letter, or go back to the built-in one.'],
    ['Dear {nickname},', 'Unknown merge field {nickname}: use {first_name}, {last_name}, {full_name}, {entry_term}, {applied_major}, {reply_by}.'],
    ['Dear {},', 'Unknown merge field {}: use {first_name}, {last_name}, {full_name}, {entry_term}, {applied_major}, {reply_by}.'],
    ['x'.repeat(10_001), 'A letter can have at most 10,000 characters.'],
  ])('%j → %s', (template, problem) => expect(letterTemplateProblem(template)).toBe(problem));

  it('finds nothing wrong with any built-in letter', () => {
    for (const decision of DECISIONS) expect(letterTemplateProblem(defaultLetter(decision)), decision).toBeNull();
  });

  it('merges an office’s template as it merges the built-in one', () => {
    expect(decisionLetter('admit', { first_name: 'Jordan', last_name: 'Rivera' }, 'Dear {full_name}, reply by {reply_by}.')).toBe('Dear Jordan Rivera, reply by May 1, 2027.');
  });
});

describe('the decision texts', () => {
  it('says each as the applicant and the office read it', () => {
    expect(decisionMessages).toEqual({
      notSubmitted: 'Only a submitted application can be decided.',
      reasonRequired: 'Say why the released decision is changing: the applicant will see the new one.',
      nothingToRelease: 'None of these applications has a decision waiting to be released.',
      nothingToRecall: 'None of these decisions is still scheduled: one whose release time has come stays released.',
      releaseInPast: 'Choose a release time from now on.',
      notAnOffer: 'There is no offer of admission to reply to.',
      replyReasonRequired: 'Say why the reply is recorded here: a phone call, a letter, a reply sent by mistake.',
      alreadyReplied: 'You have already replied to this offer.',
      underReview: 'Your application is under review. We will e-mail you when there is an update here.',
      noLetter: 'There is no decision letter yet: your application is under review.',
      letterNotReady: 'Your letter is still being made into a PDF. Please try again in a minute, or print it from this page.',
      noticeSubject: 'An update to your Northfield University application',
      withdrawn: 'This application was withdrawn at the applicant’s request: reinstate it before deciding.',
      withdrawnStatus: expect.any(Function),
    });
    expect(decisionMessages.withdrawnStatus('February 2, 2027')).toBe('Your application was withdrawn at your request on February 2, 2027. If this is a mistake, please contact the Office of Admissions.');
  });

  it('keeps the decision out of the notice e-mail, and escapes the link', () => {
    const notice = decisionNotice('https://apply.example.edu/login');
    expect(notice.text).toBe('There is an update to your application to Northfield University. Sign in to the portal to read it: https://apply.example.edu/login\n\nOffice of Admissions, Northfield University');
    expect(notice.html).toContain('<a href="https://apply.example.edu/login">');
    for (const word of ['admit', 'deny', 'denied', 'waitlist', 'defer', 'congratulat', 'offer']) expect(JSON.stringify(notice).toLowerCase()).not.toContain(word);
  });
});
