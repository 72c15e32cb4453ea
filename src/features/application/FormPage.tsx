import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { accountApi } from './api/account';
import { ServerError } from '../../lib/api/errors';
import { webStatusMutation } from './api/webStatus';
import { useFormState } from './formState';
import { authPaths, COMPLETION_PATH, DEFAULT_FORM_PATH, formSteps } from '../../lib/paths';
import { usePageTitle } from '../../lib/usePageTitle';
import { allFields, groupsOfPage } from '../../../domain/catalogue';
import type { PageId } from '../../../domain/catalogue/types';
import { DEFAULT_NUMBER_OF_COMPONENTS } from '../../../domain/config';
import { addAnotherErrorLabel } from '../documents/labels';
import type { FieldErrors } from '../../../domain/rules/collect';
import { Button } from '../../ui/Button';
import { SUCCESS_TOAST_LABEL, useToast } from '../../ui/Toast';
import { Banner, DateBanner } from './Banner';
import { optionsFor } from '../../../domain/rules/visibility';
import { isAnswered } from '../../../domain/rules/conditions';
import { ErrorSummary, focusQuestion } from './ErrorSummary';
import { FormGroup } from './FormGroup';
import { SaveForLater } from './SaveForLater';
import { saveBeforeLeavingPage } from './saveBeforeLeavingPage';
import { useAutosave } from './useAutosave';
import { validateApplication } from '../../../domain/rules/application';
import { isShown } from '../../../domain/rules/visibility';

export const SUBMITTED_MESSAGE = 'Your application was successfully submitted.';

const pageTitles: Record<PageId, string> = { about: 'About You', education: 'Academics', 'final-steps': 'Final Steps' };

/** One step of the application, rendered from the catalogue, with its buttons and flow (spec/form.md §2, §4). */
export function FormPage({ page }: { page: PageId }) {
  const { snapshot, setSnapshot, answers, setAnswers } = useFormState();
  const navigate = useNavigate();
  const location = useLocation();
  const { showToast } = useToast();
  const loggedIn = snapshot.is_logged_in;
  const validating = snapshot.web_status === 'validating';
  const { mutateAsync: postStatus } = useMutation(webStatusMutation);
  const [busy, setBusy] = useState<null | 'back' | 'next' | 'submit'>(null);
  const [addingAnother, setAddingAnother] = useState<string | null>(null);

  // Validation messages are computed only while validating (spec/form.md §4).
  const errors: FieldErrors = useMemo(() => (validating ? validateApplication(answers) : {}), [validating, answers]);
  const hasErrors = Object.keys(errors).length > 0;
  usePageTitle(`${hasErrors ? 'Error: ' : ''}${pageTitles[page]}`);

  const addAnotherQuery = useQuery({ queryKey: ['add-another'], queryFn: accountApi.getAddAnother, enabled: loggedIn });
  const [localCounts, setLocalCounts] = useState<Record<string, number>>({});
  const countOf = (buttonId: string) => localCounts[buttonId] ?? addAnotherQuery.data?.[buttonId] ?? DEFAULT_NUMBER_OF_COMPONENTS;

  const { state: autosave, markSaved } = useAutosave(answers, loggedIn && snapshot.web_status !== 'submitted', (changes, keepalive) =>
    accountApi.putAnswer(changes, keepalive),
  );

  // Hidden fields lose their answers (and _desc companions), as spec/form.md §4 says.
  useEffect(() => {
    const clear: Record<string, string> = {};
    for (const field of allFields) {
      // A conditional dropdown whose list changed no longer holds its value (spec/form.md §4).
      const stale = field.dependsOn && answers[field.key] && !optionsFor(field, answers)?.some((o) => o.value === answers[field.key]);
      if (isShown(field, answers) && !stale) continue;
      for (const key of [field.key, `${field.key}_desc`]) {
        if (isAnswered(answers[key])) clear[key] = '';
      }
    }
    if (Object.keys(clear).length > 0) setAnswers(clear);
  }, [answers, setAnswers]);

  // A link of the error summary from another page lands here with #questionKey.
  useEffect(() => {
    const key = decodeURIComponent(location.hash.slice(1));
    if (key) setTimeout(() => focusQuestion(key));
  }, [location.key]); // eslint-disable-line react-hooks/exhaustive-deps

  const stepIndex = formSteps.findIndex((step) => step.path === `/${page}`);
  const previous = formSteps[stepIndex - 1]?.path;
  const next = formSteps[stepIndex + 1]?.path;

  async function run(kind: 'back' | 'next' | 'submit', action: () => Promise<void>) {
    if (!loggedIn) {
      navigate(authPaths.signup, { state: { answers } });
      return;
    }
    setBusy(kind);
    try {
      await action();
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      showToast({ severity: 'error', label: 'Error', message: error.message });
    } finally {
      setBusy(null);
    }
  }

  /** Back, Save & Continue: save, post validations, open the target. */
  const goTo = (target: string, kind: 'back' | 'next') =>
    run(kind, async () => {
      await saveBeforeLeavingPage(answers, snapshot.web_status);
      markSaved(answers);
      setSnapshot({ has_changed_page: true });
      navigate(target);
    });

  /** Save and Submit: save; started becomes validating; submit when nothing is missing. */
  const submit = () =>
    run('submit', async () => {
      await accountApi.putAnswer(answers);
      markSaved(answers);
      if (snapshot.web_status === 'started' || snapshot.web_status === null) {
        setSnapshot({ web_status: 'validating' });
        await postStatus('validating');
      }
      const result = validateApplication(answers);
      if (Object.keys(result).length > 0) {
        await accountApi.postValidations(result);
        setSnapshot({ has_changed_page: true });
        navigate(DEFAULT_FORM_PATH);
        return;
      }
      await accountApi.submit();
      await postStatus('submitted');
      // Shown here rather than through navigation state: the root's own redirect of a submitted
      // applicant to /completion would race with it and could drop the state.
      showToast({ severity: 'success', label: SUCCESS_TOAST_LABEL, message: SUBMITTED_MESSAGE });
      setSnapshot({ web_status: 'submitted' });
      navigate(COMPLETION_PATH);
    });

  async function addAnother(buttonId: string, label: string) {
    const count = countOf(buttonId) + 1;
    setLocalCounts((current) => ({ ...current, [buttonId]: count }));
    if (!loggedIn) return;
    setAddingAnother(buttonId);
    try {
      await accountApi.putAddAnother(buttonId, count);
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      setLocalCounts((current) => ({ ...current, [buttonId]: count - 1 }));
      showToast({ severity: 'error', label: addAnotherErrorLabel(label), message: error.message });
    } finally {
      setAddingAnother(null);
    }
  }

  return (
    <>
      <DateBanner />
      <Banner snapshot={snapshot} answers={answers} />
      <ErrorSummary errors={errors} />
      <h1>{pageTitles[page]}</h1>
      <p className="step-of">
        Step {stepIndex + 1} of {formSteps.length}
      </p>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (next) void goTo(next, 'next');
          else void submit();
        }}
      >
        {groupsOfPage(page).map((group) => (
          <FormGroup
            key={group.id}
            group={group}
            answers={answers}
            errors={errors}
            loggedIn={loggedIn}
            count={group.repeat ? countOf(group.repeat.buttonId) : 1}
            addingAnother={addingAnother === group.repeat?.buttonId}
            onAddAnother={() => void addAnother(group.repeat!.buttonId, group.repeat!.buttonLabel.replace(/^Add another /, ''))}
            onChange={setAnswers}
          />
        ))}
        <div className="form-actions">
          {previous && (
            <Button variant="secondary" loading={busy === 'back'} onClick={() => void goTo(previous, 'back')}>
              Back
            </Button>
          )}
          {next ? (
            <Button type="submit" loading={busy === 'next'}>
              Save &amp; Continue
            </Button>
          ) : (
            <Button type="submit" loading={busy === 'submit'}>
              Save and Submit
            </Button>
          )}
          <p className="autosave" role="status">
            {loggedIn && autosave === 'saved' ? 'Saved' : loggedIn && autosave === 'failed' ? 'Not saved yet: we will try again when you continue.' : ''}
          </p>
        </div>
      </form>
      {/* Outside the page's form: its dialog has a form of its own. */}
      {!loggedIn && Object.keys(answers).length > 0 && <SaveForLater answers={answers} />}
    </>
  );
}
