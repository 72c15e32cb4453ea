import { staffRoleCovers, type StaffRole } from './staff';

/**
 * Reading (issue 30): the review form an administrator defines for the cycle, the reviews readers
 * sign on it, the bins applications move through, and how applications are shared out among
 * readers. The spec says nothing of reading: these rules and texts are ours.
 */

/** A named rating scale: a rating is a point from 1 to the number of labels, each point labelled. */
interface ReviewScale {
  name: string;
  labels: string[];
}

export interface ReviewFormDefinition {
  scales: ReviewScale[];
  /** What a reader recommends, e.g. Admit / Waitlist / Deny. */
  recommendations: string[];
}

/** What the office reads on until an administrator defines its own form. */
export const DEFAULT_REVIEW_FORM: ReviewFormDefinition = {
  scales: [
    { name: 'Academics', labels: ['1 – Below our range', '2 – Within our range', '3 – Strong', '4 – Exceptional'] },
    { name: 'Essay', labels: ['1 – Weak', '2 – Adequate', '3 – Strong', '4 – Exceptional'] },
    { name: 'Activities', labels: ['1 – Limited', '2 – Involved', '3 – Leader', '4 – Distinguished'] },
  ],
  recommendations: ['Admit', 'Waitlist', 'Deny'],
};

export const reviewMessages = {
  scaleNameRepeated: 'Each rating scale needs a name of its own.',
  scaleLabelsRepeated: 'Each point of a scale needs a label of its own.',
  recommendationRepeated: 'Each recommendation needs a name of its own.',
  recommendationRequired: 'Choose a recommendation.',
  ratingOutOfScale: 'Choose one of the points of this scale.',
  scaleUnknown: 'This scale is not on the review form: reload the page to read the current form.',
  notSubmitted: 'Only a submitted application can be reviewed.',
  formChanged: 'The review form changed while you were writing. Your review is still here: check it against the new form and submit it again.',
  alreadyReviewed: 'You have already submitted your review of this application. A review is signed as submitted and is not changed; add a note instead.',
  binNameRepeated: 'Each bin needs a name of its own.',
  oneCompleteBin: 'Complete applications can arrive in one bin only.',
  binNotFound: 'We could not find that bin: reload the page to read the current bins.',
  applicationsNotFound: 'We could not find some of these applications: reload the list.',
  readerNotFound: 'We could not find that reader: reload the page to read the current staff.',
  assignmentNotFound: 'There is no such assignment.',
  writeReviewFirst: 'This bin is read blind: the other reviews are shown once you submit yours.',
} as const;

/** "Rate Essay." for a scale left without a rating. */
export const ratingRequired = (scale: string) => `Rate ${scale}.`;

/** A bin that is removed while it holds applications. */
export const binNotEmpty = (name: string, count: number) => `${name} still holds ${count} ${count === 1 ? 'application' : 'applications'}: move ${count === 1 ? 'it' : 'them'} to another bin first.`;

/** Why an application was left unassigned by a share-out. */
export const assignmentSkipped = {
  conflicted: 'Every reader chosen has declared a conflict of interest with it or already reviewed or holds it.',
  /** Held by a reader who has not reviewed it yet (issue 51 §4): a second reader only when asked. */
  held: (email: string) => `${email} holds it and has not reviewed it yet: choose “Give it to a second reader too” to add another.`,
} as const;

const repeated = (names: string[]) => new Set(names.map((name) => name.trim().toLowerCase())).size !== names.length;

/** A form's faults, by field (`scales`, `recommendations`); the contract bounds the sizes. */
export function reviewFormErrors(form: ReviewFormDefinition): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const scaleErrors = [
    ...(repeated(form.scales.map((scale) => scale.name)) ? [reviewMessages.scaleNameRepeated] : []),
    ...(form.scales.some((scale) => repeated(scale.labels)) ? [reviewMessages.scaleLabelsRepeated] : []),
  ];
  if (scaleErrors.length) errors.scales = scaleErrors;
  if (repeated(form.recommendations)) errors.recommendations = [reviewMessages.recommendationRepeated];
  return errors;
}

/** A form as kept: names and labels without surrounding spaces. */
export const trimmedForm = (form: ReviewFormDefinition): ReviewFormDefinition => ({
  scales: form.scales.map((scale) => ({ name: scale.name.trim(), labels: scale.labels.map((label) => label.trim()) })),
  recommendations: form.recommendations.map((name) => name.trim()),
});

export interface ReviewDraft {
  ratings: Record<string, number>;
  recommendation: string;
  comment: string;
}

/** A review's faults against the form it is written on, by field (`ratings.<scale>`, `recommendation`). */
export function reviewErrors(form: ReviewFormDefinition, review: ReviewDraft): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const scale of form.scales) {
    const rating = review.ratings[scale.name];
    if (rating === undefined) errors[`ratings.${scale.name}`] = [ratingRequired(scale.name)];
    else if (!Number.isInteger(rating) || rating < 1 || rating > scale.labels.length) errors[`ratings.${scale.name}`] = [reviewMessages.ratingOutOfScale];
  }
  const known = new Set(form.scales.map((scale) => scale.name));
  for (const name of Object.keys(review.ratings)) if (!known.has(name)) errors[`ratings.${name}`] = [reviewMessages.scaleUnknown];
  if (!form.recommendations.includes(review.recommendation)) errors.recommendation = [reviewMessages.recommendationRequired];
  return errors;
}

/**
 * Whether a member sees the other readers' reviews: always, but in a blind bin a reader sees them
 * only once their own is submitted. Deciders and administrators, who weigh the reviews, always see them.
 */
export const reviewsVisible = (input: { blind: boolean; ownReviewSubmitted: boolean; role: StaffRole }): boolean =>
  !input.blind || input.ownReviewSubmitted || staffRoleCovers(input.role, 'decider');

export interface AssignmentCandidate {
  id: string;
  /** Readers who may not be given this application: a declared conflict, a review already signed, an assignment already held. */
  excluded: ReadonlySet<string>;
}

export interface AssignmentPlan {
  assigned: { applicationId: string; readerId: string }[];
  skipped: string[];
}

/**
 * Shares applications out among readers, round-robin by load: each application, in the order given,
 * goes to the reader with the fewest open assignments (those held already plus those given in this
 * share-out) who is not excluded from it; a tie goes to the reader listed first. With one reader
 * this is assignment by hand. An application every reader is excluded from is skipped.
 */
export function planAssignments(applications: readonly AssignmentCandidate[], readers: readonly { id: string; open: number }[]): AssignmentPlan {
  const load = new Map(readers.map((reader) => [reader.id, reader.open]));
  const plan: AssignmentPlan = { assigned: [], skipped: [] };
  for (const application of applications) {
    let chosen: string | null = null;
    for (const reader of readers) {
      if (application.excluded.has(reader.id)) continue;
      if (chosen === null || load.get(reader.id)! < load.get(chosen)!) chosen = reader.id;
    }
    if (chosen === null) plan.skipped.push(application.id);
    else {
      plan.assigned.push({ applicationId: application.id, readerId: chosen });
      load.set(chosen, load.get(chosen)! + 1);
    }
  }
  return plan;
}

/** The text a review's signature is made over: every word of it, its author, its application and its time, in a fixed order. */
export const reviewSignedText = (review: {
  applicationId: string;
  reviewerEmail: string;
  formVersion: number;
  ratings: { scale: string; rating: number; label: string }[];
  recommendation: string;
  comment: string;
  submittedAt: string;
}): string =>
  JSON.stringify([review.applicationId, review.reviewerEmail, review.formVersion, review.ratings.map((r) => [r.scale, r.rating, r.label]), review.recommendation, review.comment, review.submittedAt]);
