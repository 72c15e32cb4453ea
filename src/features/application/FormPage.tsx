import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { groupsOfPage } from '../../../domain/catalogue';
import type { GroupDef } from '../../../domain/catalogue/types';
import { instanceHasAnswers, removeInstance } from '../../../domain/rules/repeatedGroups';
import { Modal } from '../../ui/Modal';
import { pages } from '../../../domain/catalogue/pages';
import type { PageId } from '../../../domain/catalogue/types';
import { DEFAULT_NUMBER_OF_COMPONENTS } from '../../../domain/config';
import { NO_FEE_MESSAGE, OFFLINE_TYPING_KEPT_MESSAGE, SUBMITTED_MESSAGE } from '../../../domain/messages';
import { validateApplication } from '../../../domain/rules/application';
import type { FieldErrors } from '../../../domain/rules/collect';
import { ServerError, UnauthorizedError } from '../../lib/api/errors';
import { carryOf, useNavState } from '../../lib/navState';
import { tellOtherTabs } from '../../lib/tabSync';
import { AnswersConflictError } from './answerConflicts';
import { authPaths, COMPLETION_PATH, DEFAULT_FORM_PATH } from '../../lib/paths';
import { usePageTitle } from '../../lib/usePageTitle';
import { usePhoneLibrary } from '../../lib/phoneLibrary';
import { useHeldWhilePressed } from '../../ui/useHeldWhilePressed';
import { Button } from '../../ui/Button';
import { SUCCESS_TOAST_LABEL, useToast } from '../../ui/Toast';
import { addAnotherQuery, usePutAddAnother } from './api/addAnother';
import { useSubmitApplication } from './api/submit';
import { usePostValidations } from './api/validations';
import { webStatusMutation } from './api/webStatus';
import { Banner, DateBanner } from './Banner';
import { ErrorSummary, focusQuestion } from './ErrorSummary';
import { FormGroup } from './FormGroup';
import { useStableHandler } from '../../lib/useStableHandler';
import { SaveForLater } from './SaveForLater';
import { AfterFormSlot } from './fieldSlots';
import { useAnswers, useApplication } from './useApplication';

/** spec/form.md §8: 'Error adding another <button>'. */
const addAnotherErrorLabel = (button: string) => `Error adding another ${button}`;
/** The same for taking one away (issue 28), which the spec does not name. */
const removeErrorLabel = (title: string) => `Error removing ${title}`;

/** One step of the application, rendered from the catalogue, with its buttons and flow (spec/form.md §2, §4). */
const ANSWERS_SAVED_MESSAGE = 'Your answers are saved.';

export function FormPage({ page }: { page: PageId }) {
  const { snapshot, setSnapshot, answers: answersStore, setAnswers, noteDraft, autosave, saveAnswers, saveBeforeLeavingPage, applicationId } = useApplication();
  const navigate = useNavigate();
  const location = useLocation();
  const { showToast, dismissToast } = useToast();
  const loggedIn = snapshot.is_logged_in;
  const validating = snapshot.web_status === 'validating';
  // The page reads the answers only while validating (its messages) and for a visitor (the offer
  // to save them): signed in before that, a key typed draws its group, not the page.
  const answers = useAnswers(validating || !loggedIn);
  const { mutateAsync: postStatus } = useMutation(webStatusMutation);
  const { mutateAsync: postValidations } = usePostValidations();
  const { mutateAsync: submitApplication } = useSubmitApplication();
  const { mutateAsync: putAddAnother } = usePutAddAnother();
  const [busy, setBusy] = useState<null | 'back' | 'save' | 'next' | 'submit'>(null);
  const [addingAnother, setAddingAnother] = useState<string | null>(null);
  const stepIndex = pages.findIndex((step) => step.id === page);
  const title = pages[stepIndex]!.title;

  // Validation messages are computed only while validating (spec/form.md §4); again once the
  // numbering plans are in (a number from abroad is then checked against its country's).
  const phonePlans = usePhoneLibrary(false);
  const errors: FieldErrors = useMemo(() => (validating ? validateApplication(answers) : {}), [validating, answers, phonePlans]); // eslint-disable-line react-hooks/exhaustive-deps -- phonePlans changes what validateApplication reads
  const hasErrors = Object.keys(errors).length > 0;
  // Messages that change while a click is under way wait for it to land, so nothing moves under it.
  const shownErrors = useHeldWhilePressed(errors);
  usePageTitle(`${hasErrors ? 'Error: ' : ''}${title}`);

  const addAnother = useQuery({ ...addAnotherQuery, enabled: loggedIn });
  const [localCounts, setLocalCounts] = useState<Record<string, number>>({});
  const countOf = (buttonId: string) => localCounts[buttonId] ?? addAnother.data?.[buttonId] ?? DEFAULT_NUMBER_OF_COMPONENTS;

  // A link of the error summary from another page lands here with #questionKey; a step button
  // (Back, Save & Continue, a step link) lands at the top, on the page's heading (issue 28).
  const heading = useRef<HTMLHeadingElement>(null);
  const { stepMove } = useNavState();
  useEffect(() => {
    const key = decodeURIComponent(location.hash.slice(1));
    if (key) setTimeout(() => focusQuestion(key));
    else if (stepMove) {
      window.scrollTo(0, 0);
      // A page that opens with the error summary gives it the focus (ErrorSummary) instead.
      if (!hasErrors) heading.current?.focus();
    }
  }, [location.key]); // eslint-disable-line react-hooks/exhaustive-deps -- once per navigation, not per hash object

  const previous = pages[stepIndex - 1]?.path;
  const next = pages[stepIndex + 1]?.path;

  // A button's failed save (offline, the server away): its toast goes once a save goes through,
  // not five minutes later (issue 28).
  const saveErrorToast = useRef<number | null>(null);
  const saveErrorGone = () => {
    if (saveErrorToast.current !== null) dismissToast(saveErrorToast.current);
    saveErrorToast.current = null;
  };
  useEffect(() => {
    if (autosave === 'saved') saveErrorGone();
  }, [autosave]); // eslint-disable-line react-hooks/exhaustive-deps -- on each save that went through

  async function run(kind: 'back' | 'save' | 'next' | 'submit', action: () => Promise<void>) {
    if (!loggedIn) {
      navigate(authPaths.signup, { state: { carry: carryOf(answersStore.get()) } });
      return;
    }
    setBusy(kind);
    try {
      await action();
      saveErrorGone();
    } catch (error) {
      if (error instanceof UnauthorizedError) return; // the session end already took the applicant to /login
      if (error instanceof AnswersConflictError) return; // the dialog asks which answers to keep
      if (!(error instanceof ServerError)) throw error;
      saveErrorGone();
      // Offline: what was typed is kept in this browser (drafts) and saved when the connection is back.
      saveErrorToast.current = showToast({ severity: 'error', label: 'Error', message: error.status === null ? OFFLINE_TYPING_KEPT_MESSAGE : error.message });
    } finally {
      setBusy(null);
    }
  }

  /** Back, Save & Continue: save, post validations, open the target. */
  const goTo = (target: string, kind: 'back' | 'next') =>
    run(kind, async () => {
      await saveBeforeLeavingPage();
      setSnapshot({ has_changed_page: true });
      navigate(target, { state: { stepMove: true } });
    });

  /** Save (spec/form.md §2): save and post the validations like the other buttons, and stay on the page. */
  const save = () =>
    run('save', async () => {
      await saveBeforeLeavingPage();
      showToast({ severity: 'success', label: SUCCESS_TOAST_LABEL, message: ANSWERS_SAVED_MESSAGE });
    });

  /** Save and Submit: save; started becomes validating; submit when nothing is missing. */
  const submit = () =>
    run('submit', async () => {
      await saveAnswers();
      if (snapshot.web_status === 'started' || snapshot.web_status === null) {
        setSnapshot({ web_status: 'validating' });
        await postStatus('validating');
      }
      const result = validateApplication(answersStore.get());
      if (Object.keys(result).length > 0) {
        await postValidations(result);
        setSnapshot({ has_changed_page: true });
        navigate(DEFAULT_FORM_PATH);
        return;
      }
      await submitApplication();
      if (applicationId) tellOtherTabs({ type: 'submitted', applicationId });
      await postStatus('submitted');
      // Shown here rather than through navigation state: the root's own redirect of a submitted
      // applicant to /completion would race with it and could drop the state.
      showToast({ severity: 'success', label: SUCCESS_TOAST_LABEL, message: SUBMITTED_MESSAGE });
      setSnapshot({ web_status: 'submitted' });
      navigate(COMPLETION_PATH);
    });

  // A group added by mistake (issue 28): the later ones move up, the last one's answers are
  // cleared; one holding answers is removed only once the applicant says so.
  const [removing, setRemoving] = useState<{ group: GroupDef; instance: number } | null>(null);
  async function removeGroup(group: GroupDef, instance: number) {
    setRemoving(null);
    const buttonId = group.repeat!.buttonId;
    const count = countOf(buttonId);
    setAnswers(removeInstance(group, instance, count, answersStore.get()));
    setLocalCounts((current) => ({ ...current, [buttonId]: count - 1 }));
    if (!loggedIn) return;
    try {
      await putAddAnother({ button_id: buttonId, num_components: count - 1 });
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      showToast({ severity: 'error', label: removeErrorLabel(`${group.title} ${instance}`), message: error.message });
    }
  }
  const askToRemove = useStableHandler((group: GroupDef, instance: number) =>
    instanceHasAnswers(group, instance, answersStore.get()) ? setRemoving({ group, instance }) : void removeGroup(group, instance),
  );

  const addAnotherOf = useStableHandler((group: GroupDef) => void addInstance(group.repeat!.buttonId, group.repeat!.buttonLabel.replace(/^Add another /, '')));
  async function addInstance(buttonId: string, label: string) {
    const count = countOf(buttonId) + 1;
    setLocalCounts((current) => ({ ...current, [buttonId]: count }));
    if (!loggedIn) return;
    setAddingAnother(buttonId);
    try {
      await putAddAnother({ button_id: buttonId, num_components: count });
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
      <ErrorSummary errors={shownErrors} />
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      <p className="step-of">
        Step {stepIndex + 1} of {pages.length}
      </p>
      {stepIndex === 0 && <p className="page-intro">{NO_FEE_MESSAGE}</p>}
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
            errors={shownErrors}
            loggedIn={loggedIn}
            count={group.repeat ? countOf(group.repeat.buttonId) : 1}
            addingAnother={addingAnother === group.repeat?.buttonId}
            onAddAnother={addAnotherOf}
            onRemove={askToRemove}
            onChange={setAnswers}
            onDraft={noteDraft}
          />
        ))}
        <div className="form-actions">
          {previous && (
            <Button variant="secondary" loading={busy === 'back'} onClick={() => void goTo(previous, 'back')}>
              Back
            </Button>
          )}
          <Button variant="secondary" loading={busy === 'save'} onClick={() => void save()}>
            Save
          </Button>
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
            {loggedIn && autosave === 'saved' ? 'Saved' : loggedIn && autosave === 'failed' ? 'Not saved yet: we will try again in a moment.' : ''}
          </p>
        </div>
      </form>
      {removing && (
        <Modal
          open
          onClose={() => setRemoving(null)}
          header={`Remove ${removing.group.title} ${removing.instance}?`}
          footer={
            <>
              <Button onClick={() => void removeGroup(removing.group, removing.instance)}>Remove</Button>
              <Button variant="secondary" onClick={() => setRemoving(null)}>
                Keep
              </Button>
            </>
          }
        >
          <p>Its answers will be cleared.</p>
        </Modal>
      )}
      {/* Outside the page's form: its dialog has a form of its own. */}
      {!loggedIn && Object.keys(answers).length > 0 && <SaveForLater answers={answers} />}
      {loggedIn && <AfterFormSlot page={page} />}
    </>
  );
}
