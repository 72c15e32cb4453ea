import { describe, expect, it } from 'vitest';
import { partnerConfig } from './config';
import { invitationErrors, invitationMail, ratingRequiredOf, RATING_POINTS, RATING_SCALES, recommendationErrors, recommenderMessages, takesBackWaiver, waivedByAnswers, waiverAnswered } from './recommenders';

describe('recommenders (issue 31)', () => {
  it.each([
    ['a whole invitation', { role: 'teacher', name: 'Sam Ortiz', email: 's.ortiz@school.example' }, {}],
    ['nothing typed', {}, { role: [recommenderMessages.roleRequired], name: [recommenderMessages.nameRequired], email: [recommenderMessages.emailInvalid] }],
    ['a name of spaces and a broken address', { role: 'counselor', name: '  ', email: 'pat@' }, { name: [recommenderMessages.nameRequired], email: [recommenderMessages.emailInvalid] }],
    ['the applicant’s own address, in capitals', { role: 'teacher', name: 'Me', email: ' ME@Example.com ' }, { email: [recommenderMessages.notYourself] }],
  ])('an invitation: %s', (_, input, errors) => {
    expect(invitationErrors(input, 'me@example.com')).toEqual(errors);
  });

  it('a recommendation needs how they know the applicant, for how long, every rating and a letter', () => {
    const ratings = Object.fromEntries(RATING_SCALES.map((scale) => [scale, RATING_POINTS[0]]));
    expect(recommendationErrors({ relationship: 'Counselor', known_for: '3 years or more', ratings, hasLetter: true })).toEqual({});
    expect(recommendationErrors({ relationship: ' ', known_for: 'ages', ratings: { [RATING_SCALES[0]]: 'Superb' }, hasLetter: false })).toEqual({
      relationship: [recommenderMessages.relationshipRequired],
      known_for: [recommenderMessages.knownForRequired],
      ...Object.fromEntries(RATING_SCALES.map((scale) => [`ratings.${scale}`, [ratingRequiredOf(scale)]])),
      letter: [recommenderMessages.letterRequired],
    });
  });

  it('reads the waiver from the Final Steps answer', () => {
    expect([waiverAnswered({ counselor_waiver_request: 'N' }), waiverAnswered({ counselor_waiver_request: '' }), waiverAnswered({})]).toEqual([true, false, false]);
    expect(waivedByAnswers({ counselor_waiver_request: 'Y' })).toBe(true);
    expect(waivedByAnswers({ counselor_waiver_request: 'N' })).toBe(false);
    expect(waivedByAnswers({})).toBe(false);
  });

  it('tells the recommender who asks, whether the applicant may read the letter, and the link', () => {
    const mail = invitationMail({ recommenderName: 'Sam Ortiz', applicantName: 'Jordan Rivera', role: 'teacher', waived: false, link: 'https://portal.example/recommend?token=abc', expiresOn: 'January 24, 2027' });
    expect(mail.subject).toBe(`Jordan Rivera asks you for a recommendation to ${partnerConfig.name}`);
    expect(mail.paragraphs).toEqual([
      'Dear Sam Ortiz,',
      `Jordan Rivera is applying to ${partnerConfig.name} and has asked you, as their teacher, for a recommendation.`,
      'The applicant has not waived their right to see this recommendation: they may read your letter.',
      'To answer a few questions and upload your letter (PDF or Word), open this link, which is yours alone, by January 24, 2027: https://portal.example/recommend?token=abc',
      'If you do not know this applicant, you can ignore this e-mail.',
    ]);
  });

  it('says each fault exactly', () => {
    expect(recommenderMessages).toEqual({
      nameRequired: 'Enter the recommender’s name.',
      emailInvalid: 'Enter the recommender’s e-mail address, like name@school.org.',
      roleRequired: 'Choose whether they are your counselor or a teacher.',
      notYourself: 'Ask someone other than yourself.',
      alreadyAsked: 'You have already asked this person.',
      tooMany: 'You can ask one school counselor and up to two teachers. Withdraw a request to ask someone else.',
      waiverFirst: 'First answer the Final Steps question on your right to see your recommendations: your recommenders are told your answer.',
      notFound: 'There is no such recommender on your application.',
      alreadySubmitted: 'This recommender has already sent their letter: there is nothing to resend or withdraw.',
      letterHidden: 'You waived your right to see your recommendations, so their letters are not shown to you.',
      waiverBound: 'You waived your right to see your recommendations, and the recommenders you asked were told so: this answer can no longer be changed.',
      letterNotYet: 'This letter has not arrived yet.',
      linkInvalid: 'This recommendation link is not valid. It may have been replaced by a newer one: please use the link in the latest e-mail, or ask the applicant to send it again.',
      linkExpired: 'This recommendation link has expired. Please ask the applicant to send it again.',
      linkWithdrawn: 'The applicant withdrew this request, so no recommendation is needed. Thank you for your time.',
      linkUsed: 'Your recommendation has been submitted. Thank you: nothing more is needed.',
      converting: 'Your letter is being converted. Please wait a moment.',
      relationshipRequired: 'Say how you know the applicant.',
      knownForRequired: 'Choose how long you have known the applicant.',
      letterRequired: 'Attach your letter (PDF or Word).',
      sent: 'Your recommendation was submitted. Thank you.',
    });
    expect(ratingRequiredOf('Academic achievement')).toBe('Rate Academic achievement.');
  });

  it('takes a waiver back by any answer but Y, and only the waiver question', () => {
    expect(takesBackWaiver('counselor_waiver_request', 'N')).toBe(true);
    expect(takesBackWaiver('counselor_waiver_request', '')).toBe(true);
    expect(takesBackWaiver('counselor_waiver_request', null)).toBe(true);
    expect(takesBackWaiver('counselor_waiver_request', 'Y')).toBe(false);
    expect(takesBackWaiver('counselor_waiver_request_desc', 'No')).toBe(false);
    expect(takesBackWaiver('first_name', 'N')).toBe(false);
  });
});
