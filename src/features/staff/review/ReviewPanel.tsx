import { MutationError } from '../../../ui/MutationError';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../../generated/api';
import { reviewMessages, type ReviewDraft } from '../../../../domain/reviews';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { Button } from '../../../ui/Button';
import { RadioGroup } from '../../../ui/RadioGroup';
import { describedBy, Field, invalid } from '../../../ui/Field';
import { reviewFormQuery, useSubmitReview } from './api/review';
import { useStaffMe } from '../session/SignedInConsole';
import { whenText } from '../paths';
import { Scores } from './Scores';

type StaffApplication = components['schemas']['StaffApplication'];
type Review = components['schemas']['Review'];

/** The bound of a review's comment (openapi.yaml ReviewRequest). */
const COMMENT_MAX_LENGTH = 5000;
/** The form W focuses ("write my review"). */
export const REVIEW_FORM_ID = 'review-form';

/** A draft kept in the tab while the reader moves through the list (J / K), dropped once signed. */
const draftKey = (applicationId: string) => `portal.reviewDraft.${applicationId}`;
const emptyDraft: ReviewDraft = { ratings: {}, recommendation: '', comment: '' };
function readDraft(applicationId: string): ReviewDraft {
  try {
    return { ...emptyDraft, ...(JSON.parse(sessionStorage.getItem(draftKey(applicationId)) ?? '{}') as Partial<ReviewDraft>) };
  } catch {
    return emptyDraft;
  }
}

function SignedReview({ review }: { review: Review }) {
  return (
    <li className="staff-review">
      <p className="staff-notes__meta">
        {review.reviewer_email}, <time dateTime={review.submitted_at}>{whenText(review.submitted_at)}</time>
        {review.bin && ` · ${review.bin}`}
      </p>
      <dl className="staff-review__ratings">
        {review.ratings.map((rating) => (
          <div key={rating.scale}>
            <dt>{rating.scale}</dt>
            <dd>{rating.label}</dd>
          </div>
        ))}
        <div>
          <dt>Recommendation</dt>
          <dd>{review.recommendation}</dd>
        </div>
      </dl>
      {review.comment && <p className="staff-notes__text">{review.comment}</p>}
      <p className="staff-review__signature">
        Signed <span title={review.signature}>{review.signature.slice(0, 12)}…</span>
      </p>
    </li>
  );
}

/** The reviews of one application (held back in a blind bin until mine is in) and my review, on the cycle's form. */
export function ReviewPanel({ application }: { application: StaffApplication }) {
  const me = useStaffMe();
  const form = useQuery(reviewFormQuery);
  const submit = useSubmitReview(application.id);
  const [draft, setDraft] = useState(() => readDraft(application.id));
  const mine = application.reviews.some((review) => review.reviewer_email === me.email);
  const errors = fieldErrorsOf(submit.error);

  const change = (next: ReviewDraft) => {
    setDraft(next);
    sessionStorage.setItem(draftKey(application.id), JSON.stringify(next));
  };
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!form.data) return;
    // Only the current form's scales: a rating of a scale since removed is not sent.
    const ratings = Object.fromEntries(form.data.scales.flatMap((scale) => (draft.ratings[scale.name] ? [[scale.name, draft.ratings[scale.name]!]] : [])));
    submit.mutate({ form_version: form.data.version, ratings, recommendation: draft.recommendation, comment: draft.comment }, { onSuccess: () => sessionStorage.removeItem(draftKey(application.id)) });
  };

  return (
    <section aria-labelledby="reviews-title" className="staff-notes">
      <h2 id="reviews-title">Reviews</h2>
      {application.scores && <Scores scores={application.scores} />}
      {application.reviews_hidden > 0 && (
        <p>
          {reviewMessages.writeReviewFirst} {application.reviews_hidden === 1 ? '1 review is in.' : `${application.reviews_hidden} reviews are in.`}
        </p>
      )}
      {application.reviews.length > 0 ? (
        <ol className="staff-notes__list">
          {application.reviews.map((review) => (
            <SignedReview key={review.id} review={review} />
          ))}
        </ol>
      ) : (
        application.reviews_hidden === 0 && <p>No reviews yet.</p>
      )}
      {!mine && application.status === 'submitted' && form.data && (
        <form id={REVIEW_FORM_ID} onSubmit={send} noValidate aria-labelledby="my-review-title">
          <h3 id="my-review-title">My review</h3>
          <p className="field__hint">Signed with your name when you submit it, and kept as submitted: it cannot be changed.</p>
          {form.data.scales.map((scale, index) => (
            <RadioGroup
              key={scale.name}
              id={`review-scale-${index}`}
              legend={scale.name}
              value={draft.ratings[scale.name] ? String(draft.ratings[scale.name]) : undefined}
              options={scale.labels.map((label, point) => ({ value: String(point + 1), label }))}
              errors={errors[`ratings.${scale.name}`]}
              onChange={(value) => change({ ...draft, ratings: { ...draft.ratings, [scale.name]: Number(value) } })}
            />
          ))}
          <RadioGroup
            id="review-recommendation"
            legend="Recommendation"
            value={draft.recommendation || undefined}
            options={form.data.recommendations.map((name) => ({ value: name, label: name }))}
            errors={errors.recommendation}
            onChange={(value) => change({ ...draft, recommendation: value })}
          />
          <Field id="review-comment" label="Comment (optional)" errors={errors.comment}>
            <textarea
              id="review-comment"
              className="input input--outlined"
              value={draft.comment}
              onChange={(event) => change({ ...draft, comment: event.target.value })}
              maxLength={COMMENT_MAX_LENGTH}
              rows={4}
              aria-invalid={invalid(errors.comment)}
              aria-describedby={describedBy({ id: 'review-comment', errors: errors.comment })}
            />
          </Field>
          <Button type="submit" loading={submit.isPending}>
            Submit my review
          </Button>
          <MutationError error={submit.error} />
        </form>
      )}
    </section>
  );
}
