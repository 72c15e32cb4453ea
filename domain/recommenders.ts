import { partnerConfig } from './config';
import { EMAIL_PATTERN } from './rules/formats';

/**
 * Recommenders (issue 31): the applicant asks a counselor and teachers for a recommendation; each
 * gets a link of their own to a small form and a letter upload. The spec says nothing of
 * recommenders: these rules and texts are ours.
 */

export type RecommenderRole = 'counselor' | 'teacher';

/** The checklist item a recommender's letter counts for. */
export const ITEM_OF_ROLE: Record<RecommenderRole, string> = { counselor: 'counselor_recommendation', teacher: 'teacher_recommendation' };

/** How many of each an applicant may have asked at once (withdrawn requests do not count). */
export const RECOMMENDERS_PER_ROLE: Record<RecommenderRole, number> = { counselor: 1, teacher: 2 };

export const ROLE_NAMES: Record<RecommenderRole, string> = { counselor: 'School counselor', teacher: 'Teacher' };

/** How long a link stays good: recommenders take weeks. */
export const RECOMMENDER_LINK_DAYS = 60;

export const KNOWN_FOR = ['Less than a year', '1 to 2 years', '3 years or more'] as const;

/** The scales a recommender rates the applicant on, each with the same points. */
export const RATING_SCALES = ['Academic achievement', 'Intellectual curiosity', 'Character and integrity'] as const;
export const RATING_POINTS = ['Exceptional (top 1%)', 'Excellent (top 10%)', 'Very good (top 25%)', 'Good (top 50%)', 'Below average', 'No basis to judge'] as const;

export const recommenderMessages = {
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
} as const;

/** "Rate Academic achievement." for a scale left unrated. */
export const ratingRequiredOf = (scale: string) => `Rate ${scale}.`;

/** The errors of an invitation, by field; the applicant's own address is refused. */
export function invitationErrors(input: { role?: string; name?: string; email?: string }, applicantEmail: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (input.role !== 'counselor' && input.role !== 'teacher') errors.role = [recommenderMessages.roleRequired];
  if (!input.name?.trim()) errors.name = [recommenderMessages.nameRequired];
  const email = input.email?.trim().toLowerCase() ?? '';
  if (!EMAIL_PATTERN.test(email)) errors.email = [recommenderMessages.emailInvalid];
  else if (email === applicantEmail.toLowerCase()) errors.email = [recommenderMessages.notYourself];
  return errors;
}

export interface RecommendationAnswers {
  relationship: string;
  known_for: string;
  ratings: Record<string, string>;
}

/** The errors of a recommender's form, by field (`ratings.<scale>` for each scale). */
export function recommendationErrors(input: Partial<RecommendationAnswers> & { hasLetter: boolean }): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!input.relationship?.trim()) errors.relationship = [recommenderMessages.relationshipRequired];
  if (!KNOWN_FOR.includes(input.known_for as (typeof KNOWN_FOR)[number])) errors.known_for = [recommenderMessages.knownForRequired];
  for (const scale of RATING_SCALES) {
    if (!RATING_POINTS.includes(input.ratings?.[scale] as (typeof RATING_POINTS)[number])) errors[`ratings.${scale}`] = [ratingRequiredOf(scale)];
  }
  if (!input.hasLetter) errors.letter = [recommenderMessages.letterRequired];
  return errors;
}

/** Whether the applicant answered the waiver question (their recommenders are told the answer). */
export const waiverAnswered = (answers: Record<string, unknown>): boolean => answers.counselor_waiver_request === 'Y' || answers.counselor_waiver_request === 'N';

/** Whether the applicant waives their right to see the letters (the Final Steps answer): what a recommender asked now is told. */
export const waivedByAnswers = (answers: Record<string, unknown>): boolean => answers.counselor_waiver_request === 'Y';

/** The Final Steps question whose answer a recommender asked under it holds (issue 49). */
export const WAIVER_KEY = 'counselor_waiver_request';

/** Why each answer the server may hold bound (Profile `bound_answers`) can no longer be changed, as the form says it. */
export const BOUND_ANSWER_NOTES: Readonly<Record<string, string>> = { [WAIVER_KEY]: recommenderMessages.waiverBound };

/** Whether saving `value` for `key` would take back a waiver: refused while a recommender asked under it stands. */
export const takesBackWaiver = (key: string, value: unknown): boolean => key === WAIVER_KEY && value !== 'Y';

/** The request e-mail's words: who asks, what for, whether the applicant may read the letter, and the link. */
export function invitationMail(input: { recommenderName: string; applicantName: string; role: RecommenderRole; waived: boolean; link: string; expiresOn: string }): { subject: string; paragraphs: string[] } {
  return {
    subject: `${input.applicantName} asks you for a recommendation to ${partnerConfig.name}`,
    paragraphs: [
      `Dear ${input.recommenderName},`,
      `${input.applicantName} is applying to ${partnerConfig.name} and has asked you, as their ${ROLE_NAMES[input.role].toLowerCase()}, for a recommendation.`,
      input.waived
        ? 'The applicant has waived their right to see this recommendation: they will not read your letter.'
        : 'The applicant has not waived their right to see this recommendation: they may read your letter.',
      `To answer a few questions and upload your letter (PDF or Word), open this link, which is yours alone, by ${input.expiresOn}: ${input.link}`,
      'If you do not know this applicant, you can ignore this e-mail.',
    ],
  };
}
