import { useMutation, useQuery } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { answerKeys, documentKeys } from '../../../domain/catalogue';
import { validateApplication } from '../../../domain/rules/application';
import { answersToClear } from '../../../domain/rules/visibility';
import { registerBeforeAutoLogout } from '../../lib/beforeLogout';
import {
  answersToFill,
  carryOf,
  endCarries,
  keepCarry,
  keepDrafts,
  readDrafts,
  useNavState,
  validCarry,
  type Carry,
  type StudentAnswers,
} from '../../lib/navState';
import { ServerError } from '../../lib/api/errors';
import { bindApplication, registerUnsavedAnswers } from '../../lib/sessionEnd';
import { onOtherTabs, tellOtherTabs } from '../../lib/tabSync';
import { useCoalescedWrite } from '../../lib/useCoalescedWrite';
import { SUCCESS_TOAST_LABEL, useToast } from '../../ui/Toast';
import { answerText } from '../../../domain/rules/answersBase';
import { isLabelKey } from '../../../domain/rules/choiceLabels';
import { AnswerConflictDialog } from './AnswerConflictDialog';
import { createAnswersStore, useAnswersFrom, useAnswersOnFrom, type AnswersStore } from './answersStore';
import { AnswersConflictError, newerToShow, readConflict, resolveConflicts, type AnswerConflict, type Choice } from './answerConflicts';
import { answersBaseHeader, putAnswer } from './api/answer';
import { putLastPage } from './api/lastPage';
import { profileQuery } from './api/profile';
import { postValidations } from './api/validations';
import { webStatusMutation } from './api/webStatus';
import { deriveWebStatus, numLogins, type ClientSnapshot } from './formState';
import { useAutosave, type AutosaveState } from './useAutosave';
import { useRestoreSavedAnswers } from './useRestoreSavedAnswers';

export interface Application {
  /** The profile has loaded (or there is none to load: a visitor). */
  ready: boolean;
  /** Why the profile could not load (a thrown ServerError or UnauthorizedError), for the error boundary. */
  loadError: unknown;
  snapshot: ClientSnapshot;
  setSnapshot: (update: Partial<ClientSnapshot>) => void;
  /**
   * The answers as the applicant sees them: saved, carried from before signing in, and typed since.
   * Read in render with `useAnswers` or `useAnswersOn` (drawn again when they change), in a handler
   * with `answers.get()`.
   */
  answers: AnswersStore;
  setAnswers: (update: StudentAnswers) => void;
  /** A text area's text before it is committed: kept in the browser and saved when the page is hidden. */
  noteDraft: (key: string, value: string) => void;
  autosave: AutosaveState;
  /** Saves every answer now (Save and Submit). */
  saveAnswers: () => Promise<void>;
  /**
   * What Back, Save & Continue and the step links do before the next page opens (spec/platform.md
   * §2, spec/form.md §2): post the answers, then, while validating, a non-empty validation result.
   */
  saveBeforeLeavingPage: () => Promise<void>;
  /** The application this page was loaded for (null: a visitor, or not loaded yet). */
  applicationId: string | null;
}

const ApplicationContext = createContext<Application | null>(null);
/** The answers alone, in a context whose value never changes: a group reading them is not drawn again when a save's state changes. */
const AnswersContext = createContext<AnswersStore | null>(null);

/**
 * A document question's ANSWERED mark is written by the server when its file converts (and removed
 * when it is deleted): the client shows the mark but never sends it, so there is one writer.
 */
const serverWritten = new Set(documentKeys);
/** What may be sent: the form's questions (the server refuses anything else), never a document's mark. */
const sendable = (answers: StudentAnswers): StudentAnswers =>
  Object.fromEntries(Object.entries(answers).filter(([key]) => answerKeys.has(key) && !serverWritten.has(key)));

/** How often, at most, typing writes the drafts kept in this browser (useCoalescedWrite). */
const DRAFTS_WRITE_INTERVAL_MS = 500;

const KEPT_SAVED_MESSAGE = 'Some answers typed earlier were not used: your account has newer answers for those questions.';

/** The carried answers and drafts that fill an account's saved answers, and the keys where the saved answer stayed. */
function carriedInto(saved: StudentAnswers, owner: string, carry: Carry | null) {
  const sources = [carry && (carry.owner === null || carry.owner === owner.toLowerCase()) ? carry : null, readDrafts(owner)];
  let answers: StudentAnswers = {};
  const kept = new Set<string>();
  for (const source of sources) {
    if (!source) continue;
    const { fill, kept: stayed } = answersToFill(saved, source);
    answers = { ...answers, ...sendable(fill) };
    for (const key of stayed) if (!serverWritten.has(key)) kept.add(key);
  }
  for (const key of Object.keys(answers)) kept.delete(key);
  return { answers, kept: [...kept] };
}

/** The one owner of the application's answers and client snapshot; pages read it with `useApplication`. */
export function useApplication(): Application {
  const value = useContext(ApplicationContext);
  if (!value) throw new Error('useApplication must be used inside <ApplicationProvider>');
  return value;
}

function useAnswersStore(): AnswersStore {
  const store = useContext(AnswersContext);
  if (!store) throw new Error('The answers are read inside <ApplicationProvider>');
  return store;
}

/** Every answer, drawn again on each change; `when` false: none (and no drawing again for them). */
export const useAnswers = (when = true): StudentAnswers => useAnswersFrom(useAnswersStore(), when);

/** The answers, drawn again only when one of `keys` changes (null: any). */
export const useAnswersOn = (keys: ReadonlySet<string> | null): StudentAnswers => useAnswersOnFrom(useAnswersStore(), keys);

/**
 * Loads the profile (spec/platform.md §2), derives the client snapshot and keeps the answers:
 * every change goes through `setAnswers`, every save through autosave or the two save calls here.
 * Also applies the status and last-page rules and saves before an automatic logout.
 */
export function ApplicationProvider({ loggedIn, children }: { loggedIn: boolean; children: ReactNode }) {
  const navState = useNavState();
  const location = useLocation();
  const navigate = useNavigate();
  const profile = useQuery({ ...profileQuery, enabled: loggedIn });
  const { mutate: postStatus } = useMutation(webStatusMutation);
  const [snapshotUpdate, setSnapshotUpdate] = useState<Partial<ClientSnapshot>>({});
  const restoredLastPage = useRef(false);

  const snapshot: ClientSnapshot = useMemo(
    () => ({
      username: profile.data?.username ?? null,
      last_page: profile.data?.last_page ?? null,
      is_logged_in: loggedIn,
      is_service_user: false,
      num_logins: numLogins(profile.data),
      has_changed_page: false,
      web_status: profile.data ? deriveWebStatus(profile.data.web_status) : null,
      ...snapshotUpdate,
    }),
    [profile.data, loggedIn, snapshotUpdate],
  );
  // A visitor sees what a visitor typed in this tab (Back from sign-up, a reload); never an account's.
  const [visitorAnswers] = useState(() => {
    const carry = loggedIn ? null : validCarry(navState);
    return carry?.owner === null ? carry.answers : {};
  });
  // Signed in: answers carried to the sign-in and drafts kept in this browser fill the keys the
  // account has not saved since; decided once, when the profile first loads.
  const [carried, setCarried] = useState<{ answers: StudentAnswers; kept: string[] } | null>(null);
  if (carried === null && loggedIn && profile.data) setCarried(carriedInto(profile.data.answer, profile.data.username, validCarry(navState)));
  const base = useMemo(
    () => (loggedIn ? { ...(profile.data?.answer ?? {}), ...carried?.answers } : visitorAnswers),
    [loggedIn, profile.data, carried, visitorAnswers],
  );
  // The edits typed since are kept in the store, on top of the base; a new base is set while this
  // renders, so the page drawn in the same pass reads it, and readers not drawn again are told before paint.
  const [answers] = useState(() => createAnswersStore(base));
  answers.setBaseQuietly(base);
  useLayoutEffect(() => answers.notify(), [answers, base]);
  const setSnapshot = useCallback((update: Partial<ClientSnapshot>) => setSnapshotUpdate((current) => ({ ...current, ...update })), []);
  // A text area's draft before it is committed on blur (spec/form.md §4): kept and saved on page hide.
  const typing = useRef<StudentAnswers>({});
  const setAnswers = useCallback((update: StudentAnswers) => {
    for (const key of Object.keys(update)) delete typing.current[key];
    answers.set(update);
  }, [answers]);

  useRestoreSavedAnswers(loggedIn, setAnswers);

  const ready = !loggedIn || profile.isSuccess;
  const status = snapshot.web_status;
  const username = profile.data?.username ?? null;
  const applicationId = profile.data?.application_id ?? null;
  // Every write of this page names the application it was loaded for (issue 28). First among the
  // effects: the saves of carried answers below go out with it.
  useEffect(() => {
    if (applicationId && username) bindApplication({ applicationId, username });
  }, [applicationId, username]);

  // What the account holds as far as this page knows: the base of every save (issue 28).
  const known = useRef<StudentAnswers>({});
  /** The answers' revision `known` is of: null once the page may have missed a change (each answer is then compared). */
  const knownRevision = useRef<number | null>(null);
  const autosaveEnabled = loggedIn && ready && status !== 'submitted';
  useEffect(() => {
    if (!autosaveEnabled) return;
    known.current = profile.data?.answer ?? {};
    knownRevision.current = profile.data?.answers_revision ?? null;
  }, [autosaveEnabled]); // eslint-disable-line react-hooks/exhaustive-deps -- the answers as the profile loaded them, once

  /**
   * Newer answers from elsewhere, taken where the page still shows what it had: known and shown.
   * Where the applicant has typed since, the page keeps its answer and what it knew, so its next
   * save of it is a conflict to ask about, never a silent overwrite.
   */
  const takeNewer = useCallback((newer: StudentAnswers, had: StudentAnswers) => {
    const shown = newerToShow(newer, had, answers.get());
    if (Object.keys(shown).length === 0) return;
    known.current = { ...known.current, ...shown };
    answers.set(shown);
  }, [answers]);

  const [conflicts, setConflicts] = useState<AnswerConflict[]>([]);
  const conflictsPending = useRef(false);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  /** The answers of the saves on their way. */
  const inFlight = useRef(new Set<StudentAnswers>());
  /** The page has been left (pagehide): nothing more is sent, but the save it sent as it went. */
  const pageGone = useRef(false);
  useEffect(() => {
    const gone = () => (pageGone.current = true);
    const back = () => (pageGone.current = false); // back from the browser's cache
    window.addEventListener('pagehide', gone);
    window.addEventListener('pageshow', back);
    return () => {
      window.removeEventListener('pagehide', gone);
      window.removeEventListener('pageshow', back);
    };
  }, []);
  /**
   * Every save of the page, one at a time (each one's base is what the one before left): the
   * answers, with what the page knew of each it changed. Newer answers it had not changed are
   * taken; answers changed on both sides open the dialog, and nothing is written until it is answered.
   */
  const saveChecked = useCallback(
    (answersToSave: StudentAnswers, keepalive = false): Promise<void> => {
      const run = async () => {
        if (conflictsPending.current) throw new AnswersConflictError();
        const body = sendable(answersToSave);
        if (Object.keys(body).length === 0) return;
        // The page is gone (pagehide): its save as it closed was the last word.
        if (pageGone.current && !keepalive) return;
        // A save as the page is hidden or closes cannot ask anyone about a conflict, and may pass
        // a save on its way (even one of the document it replaced, on a reload): it sends only
        // what the applicant changed here, merged as typed, so nothing typed is lost
        // (docs/decisions/0017). Every other save goes from what the page knows, and from what
        // such a save still on its way sends (then with no revision: it cannot know the one that makes).
        const onWay = [...inFlight.current];
        const before = Object.assign({}, known.current, ...onWay) as StudentAnswers;
        const changed = Object.keys(body).filter((key) => !isLabelKey(key) && answerText(before[key]) !== answerText(body[key]));
        const base = keepalive ? undefined : answersBaseHeader(before, changed, onWay.length > 0 ? null : knownRevision.current);
        inFlight.current.add(body);
        try {
          const result = await putAnswer(body, { base, keepalive });
          const newer = result.current ?? {};
          known.current = { ...known.current, ...body };
          // Given only when the page knew every answer as of the revision before: otherwise it
          // compares what it sends from now on (docs/decisions/0017).
          knownRevision.current = result.revision ?? null;
          takeNewer(newer, body);
          const written = Object.fromEntries(Object.entries(body).filter(([key]) => !(key in newer)));
          if (applicationId) tellOtherTabs({ type: 'saved', applicationId, answers: written });
        } catch (error) {
          if (!(error instanceof ServerError) || error.code !== 'ANSWERS_CHANGED') throw error;
          const found = readConflict(error.body, body);
          knownRevision.current = null;
          takeNewer(found.newer, body);
          conflictsPending.current = true;
          setConflicts(found.conflicts);
          throw new AnswersConflictError(error.message);
        } finally {
          inFlight.current.delete(body);
        }
      };
      // A save as the page closes goes at once: behind another, it would never leave.
      if (keepalive) return run();
      const next = queue.current.then(run, run);
      queue.current = next.catch(() => {});
      return next;
    },
    [applicationId, takeNewer],
  );

  const { state: autosave, unsaved } = useAutosave({
    answers,
    saved: known,
    enabled: autosaveEnabled,
    save: saveChecked,
    pending: () => typing.current,
  });

  // The applicant chose, answer by answer: the account's answers become the base, the ones taken
  // are shown, and everything is saved again.
  const resolve = useCallback(
    (choices: Record<string, Choice>) => {
      const { known: account, take } = resolveConflicts(conflicts, choices);
      known.current = { ...known.current, ...account };
      conflictsPending.current = false;
      setConflicts([]);
      if (Object.keys(take).length > 0) setAnswers(take);
      void saveChecked({ ...answers.get(), ...typing.current, ...take }).catch(() => {});
    },
    [conflicts, saveChecked, setAnswers, answers],
  );

  // Another tab of this account saved: its answers show here where this page has no change of its own.
  useEffect(() => {
    if (!applicationId) return;
    return onOtherTabs((message) => {
      if (message.type !== 'saved' || message.applicationId !== applicationId) return;
      takeNewer(message.answers, known.current);
    });
  }, [applicationId, takeNewer]);

  // The carry is in the application now: every other copy of it (history entries) is void.
  const { showToast } = useToast();
  useEffect(() => {
    if (!carried) return;
    endCarries();
    if (carried.kept.length > 0) showToast({ severity: 'success', label: SUCCESS_TOAST_LABEL, message: KEPT_SAVED_MESSAGE });
  }, [carried !== null]); // eslint-disable-line react-hooks/exhaustive-deps -- once, when the carry was taken in

  // What is not saved yet is kept in this browser, for this account only, until it is saved: a
  // reload or a closed tab loses nothing. A visitor's answers are kept in the tab.
  const persistUnsaved = useCallback(() => {
    if (!loggedIn) return;
    if (!username || status === 'submitted') return;
    const { answers: changes, base } = unsaved();
    keepDrafts({ owner: username, answers: sendable(changes), base });
  }, [loggedIn, username, status, unsaved]);
  const persistSoon = useCoalescedWrite(persistUnsaved, DRAFTS_WRITE_INTERVAL_MS);
  useEffect(
    () =>
      answers.subscribe(() => {
        if (loggedIn) persistSoon();
        else if (Object.keys(answers.edits()).length > 0) keepCarry(carryOf(answers.get()));
      }),
    [answers, loggedIn, persistSoon],
  );
  // After each save (fewer answers unsaved), and when persistUnsaved changes (the account or the
  // status known): the drafts follow them.
  useEffect(() => {
    if (loggedIn) persistSoon();
  }, [autosave, loggedIn, persistUnsaved, persistSoon]);
  const noteDraft = useCallback(
    (key: string, value: string) => {
      typing.current[key] = value;
      persistSoon();
    },
    [persistSoon],
  );

  // A session that ends on the server takes what is unsaved to the sign-in, for this account.
  useEffect(() => {
    if (!loggedIn || !username) return;
    return registerUnsavedAnswers(() => {
      const { answers: changes, base } = unsaved();
      const carry = sendable(changes);
      return Object.keys(carry).length > 0 ? carryOf(carry, username, base) : null;
    });
  }, [loggedIn, username, unsaved]);

  // A logged-in user without a status is set to started, locally and on the server.
  useEffect(() => {
    if (ready && loggedIn && status === null) {
      setSnapshot({ web_status: 'started' });
      postStatus('started');
    }
  }, [ready, loggedIn, status, setSnapshot, postStatus]);

  // Back to the stored last page once, if the user has not changed page yet.
  const restoringTo = useRef<string | null>(null);
  const recordedPage = useRef<string | null>(null);
  useEffect(() => {
    if (!ready || !loggedIn || restoredLastPage.current) return;
    restoredLastPage.current = true;
    const lastPage = profile.data?.last_page ?? null;
    recordedPage.current = lastPage;
    // Never away from someone who has started: an answer typed, or a field in use (issue 28).
    const typingHere = Object.keys(answers.edits()).length > 0 || document.activeElement?.closest('main input, main textarea, main select') != null;
    if (lastPage && lastPage !== location.pathname && !snapshot.has_changed_page && status !== 'submitted' && !typingHere) {
      restoringTo.current = lastPage;
      navigate({ pathname: lastPage, search: location.search }, { replace: true, state: location.state });
    }
  }, [ready, loggedIn]); // eslint-disable-line react-hooks/exhaustive-deps -- once, with the profile as it first loaded

  // While started or validating, every page visit records the current path as the last page: one
  // write per page actually opened. The page a sign-in lands on before going back to the stored
  // one is not a visit (its write would race the stored page's and could win).
  useEffect(() => {
    if (!ready || !loggedIn || !restoredLastPage.current) return;
    if (restoringTo.current !== null) {
      if (location.pathname !== restoringTo.current) return;
      restoringTo.current = null;
    }
    if (location.pathname === recordedPage.current) return;
    if (status === 'started' || status === 'validating') {
      recordedPage.current = location.pathname;
      const path = location.pathname;
      void putLastPage(path).catch(() => {
        if (recordedPage.current === path) recordedPage.current = null; // tried again on the next visit
      });
    }
  }, [ready, loggedIn, status, location.pathname]);

  // Hidden fields lose their answers (and _desc companions), as spec/form.md §4 says; so does a
  // conditional dropdown whose list no longer offers its value.
  // The store clears them in the same step as the change (a keystroke checks only the fields its
  // keys can affect), so no reader draws an answer its question no longer shows.
  useEffect(() => {
    const clearing = (shown: StudentAnswers, changed: readonly string[] | null) => {
      const clear = answersToClear(shown, changed);
      for (const key of Object.keys(clear)) delete typing.current[key];
      return clear;
    };
    answers.setClearing(ready && status !== 'submitted' ? clearing : null);
  }, [answers, ready, status]);

  // Before an automatic logout the current answers are saved (nothing typed is lost).
  useEffect(() => {
    if (!loggedIn || status === 'submitted') return;
    return registerBeforeAutoLogout(async () => {
      await saveChecked({ ...answers.get(), ...typing.current });
    });
  }, [loggedIn, status, saveChecked, answers]);

  // The buttons save what is typed in a text area too: its commit on blur may wait for the click.
  const saveAnswers = useCallback(async () => {
    await saveChecked({ ...answers.get(), ...typing.current });
  }, [saveChecked, answers]);

  const saveBeforeLeavingPage = useCallback(async () => {
    const saving = { ...answers.get(), ...typing.current };
    await saveChecked(saving);
    const result = status === 'validating' ? validateApplication(saving) : {};
    if (Object.keys(result).length > 0) await postValidations(result);
  }, [saveChecked, status, answers]);

  const loadError: unknown = profile.isError ? profile.error : null;
  const value: Application = useMemo(
    () => ({ ready, loadError, snapshot, setSnapshot, answers, setAnswers, noteDraft, autosave, saveAnswers, saveBeforeLeavingPage, applicationId }),
    [ready, loadError, snapshot, setSnapshot, answers, setAnswers, noteDraft, autosave, saveAnswers, saveBeforeLeavingPage, applicationId],
  );
  return (
    <ApplicationContext.Provider value={value}>
      <AnswersContext.Provider value={answers}>
        {children}
        {conflicts.length > 0 && <AnswerConflictDialog conflicts={conflicts} onResolve={resolve} />}
      </AnswersContext.Provider>
    </ApplicationContext.Provider>
  );
}
