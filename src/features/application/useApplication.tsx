import { useMutation, useQuery } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { validateApplication } from '../../../domain/rules/application';
import { registerBeforeAutoLogout } from '../../lib/beforeLogout';
import { carryOf, closedDrafts, dropDrafts, endCarries, keepCarry, keepDrafts, readDrafts, useNavState, validCarry, type StudentAnswers } from '../../lib/navState';
import { bindApplication, registerUnsavedAnswers } from '../../lib/sessionEnd';
import { onOtherTabs, tellOtherTabs } from '../../lib/tabSync';
import { useCoalescedWrite } from '../../lib/useCoalescedWrite';
import { SUCCESS_TOAST_LABEL, useToast } from '../../ui/Toast';
import { AnswerConflictDialog } from './AnswerConflictDialog';
import { carriedInto } from './answers/carriedInto';
import { current, unsaved } from './answers/answersMachine';
import { createAnswersSession, type AnswersSession } from './answers/answersSession';
import { pagePorts } from './answers/pagePorts';
import { useAnswersFrom, useAnswersOnFrom, type AnswersStore } from './answersStore';
import type { Choice } from './answerConflicts';
import { usePutLastPage } from './api/lastPage';
import { profileQuery } from '../../lib/api/profile';
import { usePostValidations } from './api/validations';
import { webStatusMutation } from './api/webStatus';
import { deriveWebStatus, numLogins, type ClientSnapshot } from './formState';
import { useRestoreSavedAnswers } from './useRestoreSavedAnswers';

/** The page's "Saved" line. */
type AutosaveState = 'idle' | 'saving' | 'saved' | 'failed';

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
  /** A text area's text before it is committed: kept in the browser and saved as typing pauses. */
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

/** How often, at most, typing writes the drafts kept in this browser (useCoalescedWrite). */
const DRAFTS_WRITE_INTERVAL_MS = 500;

const KEPT_SAVED_MESSAGE = 'Some answers typed earlier were not used: your account has newer answers for those questions.';

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

/** A part of the session's state, drawn again when it changes (not on every key typed). */
function useSessionState<T>(session: AnswersSession, select: (state: ReturnType<AnswersSession['state']>) => T): T {
  const read = () => select(session.state());
  return useSyncExternalStore(session.watch, read, read);
}

const autosaveOf = (state: ReturnType<AnswersSession['state']>): AutosaveState => (state.sending.length > 0 ? 'saving' : (state.lastSave ?? 'idle'));

/**
 * Loads the profile (spec/platform.md §2), derives the client snapshot and keeps the answers in
 * the page's answers session (answers/answersSession.ts: the reducer and its I/O, issue 48). Its
 * effects are I/O only: the other tabs, the browser's storage, the page's hiding, the last page
 * and the status; it saves before an automatic logout.
 */
export function ApplicationProvider({ loggedIn, children }: { loggedIn: boolean; children: ReactNode }) {
  const navState = useNavState();
  const location = useLocation();
  const navigate = useNavigate();
  const profile = useQuery({ ...profileQuery, enabled: loggedIn });
  const { mutate: postStatus } = useMutation(webStatusMutation);
  const { mutateAsync: putLastPage } = usePutLastPage();
  const { mutateAsync: postValidations } = usePostValidations();
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
  const setSnapshot = useCallback((update: Partial<ClientSnapshot>) => setSnapshotUpdate((current) => ({ ...current, ...update })), []);
  const ready = !loggedIn || profile.isSuccess;
  const status = snapshot.web_status;
  const username = profile.data?.username ?? null;
  const applicationId = profile.data?.application_id ?? null;

  const application = useRef(applicationId);
  application.current = applicationId;
  const [session] = useState(() =>
    createAnswersSession(
      pagePorts({
        saved: (answers) => {
          if (application.current) tellOtherTabs({ type: 'saved', applicationId: application.current, answers });
        },
      }),
    ),
  );
  useEffect(() => {
    session.start();
    return () => session.dispose();
  }, [session]);

  // The answers arrive while this renders, so the page drawn in the same pass (a drawn page
  // hydrating) reads them; the readers not drawn are told before paint. A visitor sees what a
  // visitor typed in this tab (Back from sign-up, a reload); never an account's. Signed in, answers
  // carried to the sign-in and drafts kept in this browser fill the keys the account has not saved
  // since; decided once, when the profile first loads.
  const [kept, setKept] = useState<{ keys: string[]; drafts: string[] } | null>(null);
  const readProfile = useRef<unknown>(null);
  if (session.state().phase === 'loading') {
    if (!loggedIn) {
      const carry = validCarry(navState);
      session.dispatchQuietly({ type: 'visiting', answers: carry?.owner === null ? carry.answers : {} });
    } else if (profile.data) {
      const drafts = readDrafts(profile.data.username);
      const carried = carriedInto(profile.data.answer, profile.data.username, validCarry(navState), drafts);
      readProfile.current = profile.data;
      session.dispatchQuietly({
        type: 'loaded',
        answers: profile.data.answer,
        revision: profile.data.answers_revision,
        submitted: deriveWebStatus(profile.data.web_status) === 'submitted',
        carried: carried.answers,
        mayHold: carried.mayHold,
      });
      setKept({ keys: carried.kept, drafts: drafts?.from ?? [] });
    }
  } else if (loggedIn && profile.data && readProfile.current !== profile.data) {
    readProfile.current = profile.data;
    session.dispatchQuietly({ type: 'profileRead', answers: profile.data.answer });
  }
  useLayoutEffect(() => session.notify());

  const setAnswers = useCallback((update: StudentAnswers) => session.set(update), [session]);
  const noteDraft = useCallback((key: string, value: string) => session.dispatch({ type: 'drafted', key, value }), [session]);
  useRestoreSavedAnswers(loggedIn, setAnswers);

  // Every write of this page names the application it was loaded for (issue 28). First among the
  // effects: the saves of carried answers go out with it.
  useEffect(() => {
    if (applicationId && username) bindApplication({ applicationId, username });
  }, [applicationId, username]);

  // Submitted here (or found so): frozen.
  useEffect(() => {
    if (status === 'submitted') session.dispatch({ type: 'submitted' });
  }, [session, status]);

  // Another tab of this account saved: its answers show here where this page has no change of its own.
  useEffect(() => {
    if (!applicationId) return;
    return onOtherTabs((message) => {
      if (message.type === 'saved' && message.applicationId === applicationId) session.dispatch({ type: 'otherTabSaved', answers: message.answers });
    });
  }, [applicationId, session]);

  // Hidden (another app, a closed tab, a reload): what is unsaved goes at once as the page's last
  // words; once it is left, nothing else goes (a save behind it would never leave).
  useEffect(() => {
    const onHidden = () => {
      if (document.visibilityState === 'hidden') session.lastWords();
    };
    const gone = () => {
      // Hidden first: the drafts written as it goes say the page is closed (another tab may take them up).
      session.dispatch({ type: 'pageHidden' });
      session.lastWords();
    };
    const back = () => session.dispatch({ type: 'pageShown' }); // back from the browser's cache
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', gone);
    window.addEventListener('pageshow', back);
    return () => {
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', gone);
      window.removeEventListener('pageshow', back);
    };
  }, [session]);

  // The carry is in the application now: every other copy of it (history entries) is void.
  const { showToast } = useToast();
  useEffect(() => {
    if (kept === null) return;
    // Answers kept in this tab for another account (typed as it signed in elsewhere) wait for it.
    const carry = validCarry(navState);
    if (!carry || carry.owner === null || carry.owner === username?.toLowerCase()) endCarries();
    // The drafts of closed tabs taken up are this page's now: kept under its own key until saved.
    dropDrafts(kept.drafts);
    if (kept.keys.length > 0) showToast({ severity: 'success', label: SUCCESS_TOAST_LABEL, message: KEPT_SAVED_MESSAGE });
  }, [kept !== null]); // eslint-disable-line react-hooks/exhaustive-deps -- once, when the carry was taken in

  // What is not saved yet is kept in this browser, for this account only, until it is saved: a
  // reload or a closed tab loses nothing. A visitor's answers are kept in the tab.
  const persistUnsaved = useCallback(() => {
    const state = session.state();
    if (state.phase === 'visitor' && Object.keys(state.edits).length > 0) keepCarry(carryOf(state.shown));
    if (state.phase !== 'editing' || !username) return;
    // Closed once the page goes: another tab may take them up then, not while this one is open.
    keepDrafts({ owner: username, ...unsaved(state) }, { closed: state.hidden });
  }, [session, username]);
  const persistSoon = useCoalescedWrite(persistUnsaved, DRAFTS_WRITE_INTERVAL_MS);
  useEffect(() => session.watch(persistSoon), [session, persistSoon]);

  // Another tab of this account closed with answers it could not save (offline as it went): this
  // page takes them up and saves them, so they wait for no later visit (issue 48).
  useEffect(() => {
    if (!username) return;
    const onStorage = (event: StorageEvent) => {
      if (event.storageArea !== localStorage || !event.key || !event.newValue) return;
      const drafts = closedDrafts(event.key, username);
      // Answers this page has changed too are left to that tab's next page (a reload) to ask about.
      const mine = unsaved(session.state()).answers;
      if (!drafts || Object.keys(drafts.answers).some((key) => key in mine)) return;
      const carried = carriedInto(session.state().known, username, null, drafts);
      session.dispatch({ type: 'draftsTakenUp', answers: carried.answers, mayHold: carried.mayHold });
      dropDrafts(drafts.from);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [session, username]);

  // A session that ends on the server takes what is unsaved to the sign-in, for this account.
  useEffect(() => {
    if (!loggedIn || !username) return;
    return registerUnsavedAnswers(() => {
      const { answers: changes, base } = unsaved(session.state());
      return Object.keys(changes).length > 0 ? carryOf(changes, username, base) : null;
    });
  }, [loggedIn, username, session]);

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
    const typingHere = Object.keys(session.edits()).length > 0 || document.activeElement?.closest('main input, main textarea, main select') != null;
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
  }, [ready, loggedIn, status, location.pathname, putLastPage]);

  // Before an automatic logout the current answers are saved (nothing typed is lost).
  useEffect(() => {
    if (!loggedIn || status === 'submitted') return;
    return registerBeforeAutoLogout(() => session.save('all'));
  }, [loggedIn, status, session]);

  // The buttons save what is typed in a text area too: its commit on blur may wait for the click.
  const saveAnswers = useCallback(() => session.save('all'), [session]);
  const saveBeforeLeavingPage = useCallback(async () => {
    await session.save('all');
    const result = status === 'validating' ? validateApplication(current(session.state())) : {};
    if (Object.keys(result).length > 0) await postValidations(result);
  }, [session, status, postValidations]);

  // Answers changed here and elsewhere: the applicant chooses, and that choice is saved; closing
  // the question writes nothing (issue 48).
  const conflicts = useSessionState(session, (state) => state.conflicts);
  const resolve = useCallback(
    (choices: Record<string, Choice>) => {
      session.dispatch({ type: 'conflictAnswered', choices });
      void session.save('all').catch(() => {});
    },
    [session],
  );
  const closeConflicts = useCallback(() => session.dispatch({ type: 'conflictClosed' }), [session]);

  const autosave = useSessionState(session, autosaveOf);
  const loadError: unknown = profile.isError ? profile.error : null;
  const value: Application = useMemo(
    () => ({ ready, loadError, snapshot, setSnapshot, answers: session, setAnswers, noteDraft, autosave, saveAnswers, saveBeforeLeavingPage, applicationId }),
    [ready, loadError, snapshot, setSnapshot, session, setAnswers, noteDraft, autosave, saveAnswers, saveBeforeLeavingPage, applicationId],
  );
  return (
    <ApplicationContext.Provider value={value}>
      <AnswersContext.Provider value={session}>
        {children}
        {conflicts.length > 0 && <AnswerConflictDialog conflicts={conflicts} onResolve={resolve} onClose={closeConflicts} />}
      </AnswersContext.Provider>
    </ApplicationContext.Provider>
  );
}
