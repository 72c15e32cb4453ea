import { MutationError } from '../../ui/MutationError';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { components } from '../../../generated/api';
import { fileMessages } from '../../../domain/messages';
import { KNOWN_FOR, RATING_POINTS, RATING_SCALES, recommendationErrors, recommenderMessages, ROLE_NAMES } from '../../../domain/recommenders';
import { ACCEPT_ATTRIBUTE, checkFile, contentTypeOfName } from '../../../domain/rules/files';
import { fieldErrorsOf } from '../../lib/api/errors';
import { usePageTitle } from '../../lib/usePageTitle';
import { Button } from '../../ui/Button';
import { describedBy, Field, FieldMessages, invalid } from '../../ui/Field';
import { Loading } from '../../ui/Loading';
import { RadioGroup } from '../../ui/RadioGroup';
import { SiteTitle } from '../../ui/SiteTitle';
import { SiteFooter } from '../../ui/SiteFooter';
import { recommendationQuery, useSendRecommendation } from './api/recommendation';

type RecommendationRequest = components['schemas']['RecommendationRequest'];

const KNOWN_FOR_OPTIONS = KNOWN_FOR.map((value) => ({ value, label: value }));
const POINT_OPTIONS = RATING_POINTS.map((value) => ({ value, label: value }));
const RELATIONSHIP_HINT = 'For example: their AP Chemistry teacher in grade 11.';

/** The recommender's answers and letter: checked here first, kept as typed whatever the server says. */
function RecommendationForm({ token, request }: { token: string; request: RecommendationRequest }) {
  const send = useSendRecommendation(token);
  const [relationship, setRelationship] = useState('');
  const [knownFor, setKnownFor] = useState<string | undefined>();
  const [ratings, setRatings] = useState<Record<string, string>>({});
  const [letter, setLetter] = useState<File | null>(null);
  const [tried, setTried] = useState(false);
  const letterProblem = letter ? (checkFile(letter).find((message) => message !== fileMessages.nameTooLong) ?? null) : null;
  const local = tried ? recommendationErrors({ relationship, known_for: knownFor, ratings, hasLetter: Boolean(letter) }) : {};
  if (letterProblem) local.letter = [letterProblem];
  const server = fieldErrorsOf(send.error);
  const errors: Record<string, string[] | undefined> = Object.keys(local).length ? local : server;
  const failedLetter = request.letter?.status === 'failed' ? request.letter.message : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!letter || letterProblem || Object.keys(recommendationErrors({ relationship, known_for: knownFor, ratings, hasLetter: true })).length) return;
    send.mutate({ answers: { relationship, known_for: knownFor!, ratings }, file: letter, contentType: contentTypeOfName(letter.name)! });
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="recommend-form-title">
      <h2 id="recommend-form-title">Your recommendation</h2>
      <Field id="relationship" label="How do you know the applicant?" hint={RELATIONSHIP_HINT} errors={errors.relationship}>
        <input
          id="relationship"
          className="input input--outlined"
          value={relationship}
          maxLength={300}
          onChange={(event) => setRelationship(event.target.value)}
          aria-invalid={invalid(errors.relationship)}
          aria-describedby={describedBy({ id: 'relationship', hint: RELATIONSHIP_HINT, errors: errors.relationship })}
        />
      </Field>
      <RadioGroup id="known-for" legend="How long have you known them?" options={KNOWN_FOR_OPTIONS} value={knownFor} errors={errors.known_for} onChange={setKnownFor} />
      {RATING_SCALES.map((scale, index) => (
        <RadioGroup
          key={scale}
          id={`rating-${index}`}
          legend={`${scale}, compared with other students you have known`}
          options={POINT_OPTIONS}
          value={ratings[scale]}
          errors={errors[`ratings.${scale}`]}
          onChange={(value) => setRatings((current) => ({ ...current, [scale]: value }))}
        />
      ))}
      <div className={`field${invalid(errors.letter) ? ' field--invalid' : ''}`}>
        <label className="field__label" htmlFor="letter">
          Your letter (PDF or Word, up to 1 MB)
        </label>
        <FieldMessages id="letter" errors={errors.letter ?? (failedLetter ? [failedLetter] : undefined)} />
        <input
          id="letter"
          type="file"
          accept={ACCEPT_ATTRIBUTE}
          aria-invalid={invalid(errors.letter)}
          aria-describedby={describedBy({ id: 'letter', errors: errors.letter ?? (failedLetter ? [failedLetter] : undefined) })}
          onChange={(event) => setLetter(event.target.files?.[0] ?? null)}
        />
      </div>
      <Button type="submit" loading={send.isPending}>
        Send my recommendation
      </Button>
      <MutationError error={send.error} fields={server} />
    </form>
  );
}

/** What a recommender's link opens (issue 31): who asks, whether they may read the letter, the form; or why the link is refused. */
export function RecommenderPage() {
  usePageTitle('Recommendation');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const request = useQuery({ ...recommendationQuery(token), enabled: token.length >= 16 });
  const data = request.data;
  // A used link answers 409 with the thanks: the page ends there.
  const refused = token.length < 16 ? recommenderMessages.linkInvalid : request.isError ? request.error.message : null;
  const converting = data?.letter?.status === 'unprocessed' || data?.letter?.status === 'in_progress';
  return (
    <div className="layout layout--auth">
      <header className="site-header">
        <SiteTitle />
      </header>
      <main id="main" tabIndex={-1} className="auth-card recommend">
        <h1>{data ? `A recommendation for ${data.applicant_name}` : 'Recommendation'}</h1>
        {refused && <p role="status">{refused}</p>}
        {!refused && !data && <Loading label="Opening the request" />}
        {data && !refused && (
          <>
            <p>
              Dear {data.recommender_name}, {data.applicant_name} has asked you, as their {ROLE_NAMES[data.role].toLowerCase()}, for a recommendation. This page is for this request alone: it shows nothing
              else of their application.
            </p>
            <p className="notice">
              {data.waived ? 'The applicant has waived their right to see this recommendation: they will not read your letter.' : 'The applicant has not waived their right to see this recommendation: they may read your letter.'}
            </p>
            <div role="status">{converting && recommenderMessages.converting}</div>
            {/* Hidden, not unmounted, while the letter converts: a failed conversion finds the answers as typed. */}
            <div hidden={converting}>
              <RecommendationForm token={token} request={data} />
            </div>
          </>
        )}
      </main>
      <SiteFooter />
    </div>
  );
}
