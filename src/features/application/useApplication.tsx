import { useMutation, useQuery } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { allFields, documentKeys } from '../../../domain/catalogue';
import { validateApplication } from '../../../domain/rules/application';
import { isAnswered } from '../../../domain/rules/conditions';
import { isShown, optionsFor } from '../../../domain/rules/visibility';
import { registerBeforeAutoLogout } from '../../lib/beforeLogout';
import { readPendingAnswers, useNavState, type StudentAnswers } from '../../lib/navState';
import { putAnswer } from './api/answer';
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
  /** The answers as the applicant sees them: saved, carried from before signing in, and typed since. */
  answers: StudentAnswers;
  setAnswers: (update: StudentAnswers) => void;
  autosave: AutosaveState;
  /** Saves every answer now (Save and Submit). */
  saveAnswers: () => Promise<void>;
  /**
   * What Back, Save & Continue and the step links do before the next page opens (spec/platform.md
   * §2, spec/form.md §2): post the answers, then, while validating, a non-empty validation result.
   */
  saveBeforeLeavingPage: () => Promise<void>;
}

const ApplicationContext = createContext<Application | null>(null);

/**
 * A document question's ANSWERED mark is written by the server when its file converts (and removed
 * when it is deleted): the client shows the mark but never sends it, so there is one writer.
 */
const serverWritten = new Set(documentKeys);
const sendable = (answers: StudentAnswers): StudentAnswers => Object.fromEntries(Object.entries(answers).filter(([key]) => !serverWritten.has(key)));
const saveSendable = async (answers: StudentAnswers, keepalive = false) => {
  const body = sendable(answers);
  if (Object.keys(body).length > 0) await putAnswer(body, keepalive);
};

/** The one owner of the application's answers and client snapshot; pages read it with `useApplication`. */
export function useApplication(): Application {
  const value = useContext(ApplicationContext);
  if (!value) throw new Error('useApplication must be used inside <ApplicationProvider>');
  return value;
}

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
  const [edits, setEdits] = useState<StudentAnswers>({});
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
  // A visitor's answers were kept in the tab when they went to create an account: the Back button
  // brings them back with them (a signed-in applicant's come from the profile instead).
  const [visitorAnswers] = useState(() => (loggedIn ? {} : readPendingAnswers()));
  const answers = useMemo(
    () => ({ ...(profile.data?.answer ?? {}), ...visitorAnswers, ...(navState.answers ?? {}), ...edits }),
    [profile.data, visitorAnswers, navState.answers, edits],
  );
  const setSnapshot = useCallback((update: Partial<ClientSnapshot>) => setSnapshotUpdate((current) => ({ ...current, ...update })), []);
  const setAnswers = useCallback((update: StudentAnswers) => setEdits((current) => ({ ...current, ...update })), []);

  useRestoreSavedAnswers(loggedIn, setAnswers);

  const ready = !loggedIn || profile.isSuccess;
  const status = snapshot.web_status;
  const { state: autosave, markSaved } = useAutosave({
    answers,
    saved: profile.data?.answer ?? {},
    enabled: loggedIn && ready && status !== 'submitted',
    save: saveSendable,
  });

  // A logged-in user without a status is set to started, locally and on the server.
  useEffect(() => {
    if (ready && loggedIn && status === null) {
      setSnapshot({ web_status: 'started' });
      postStatus('started');
    }
  }, [ready, loggedIn, status, setSnapshot, postStatus]);

  // Back to the stored last page once, if the user has not changed page yet.
  useEffect(() => {
    if (!ready || !loggedIn || restoredLastPage.current) return;
    restoredLastPage.current = true;
    const lastPage = profile.data?.last_page;
    if (lastPage && lastPage !== location.pathname && !snapshot.has_changed_page && status !== 'submitted') {
      navigate({ pathname: lastPage, search: location.search }, { replace: true, state: location.state });
    }
  }, [ready, loggedIn]); // eslint-disable-line react-hooks/exhaustive-deps -- once, with the profile as it first loaded

  // While started or validating, every page visit records the current path as the last page.
  useEffect(() => {
    if (!ready || !loggedIn || !restoredLastPage.current) return;
    if (status === 'started' || status === 'validating') void putLastPage(location.pathname).catch(() => {});
  }, [ready, loggedIn, status, location.pathname]);

  // Hidden fields lose their answers (and _desc companions), as spec/form.md §4 says; so does a
  // conditional dropdown whose list no longer offers its value.
  useEffect(() => {
    if (!ready || status === 'submitted') return;
    const clear: Record<string, string> = {};
    for (const field of allFields) {
      const stale = field.dependsOn && answers[field.key] && !optionsFor(field, answers)?.some((o) => o.value === answers[field.key]);
      if (isShown(field, answers) && !stale) continue;
      for (const key of [field.key, `${field.key}_desc`]) {
        if (isAnswered(answers[key])) clear[key] = '';
      }
    }
    if (Object.keys(clear).length > 0) setAnswers(clear);
  }, [ready, status, answers, setAnswers]);

  // Before an automatic logout the current answers are saved (nothing typed is lost).
  const answersRef = useRef(answers);
  answersRef.current = answers;
  useEffect(() => {
    if (!loggedIn || status === 'submitted') return;
    return registerBeforeAutoLogout(async () => {
      await saveSendable(answersRef.current);
    });
  }, [loggedIn, status]);

  const saveAnswers = useCallback(async () => {
    const saving = answersRef.current;
    await saveSendable(saving);
    markSaved(saving);
  }, [markSaved]);

  const saveBeforeLeavingPage = useCallback(async () => {
    const saving = answersRef.current;
    await saveSendable(saving);
    markSaved(saving);
    const result = status === 'validating' ? validateApplication(saving) : {};
    if (Object.keys(result).length > 0) await postValidations(result);
  }, [markSaved, status]);

  const loadError: unknown = profile.isError ? profile.error : null;
  const value: Application = useMemo(
    () => ({ ready, loadError, snapshot, setSnapshot, answers, setAnswers, autosave, saveAnswers, saveBeforeLeavingPage }),
    [ready, loadError, snapshot, setSnapshot, answers, setAnswers, autosave, saveAnswers, saveBeforeLeavingPage],
  );
  return <ApplicationContext.Provider value={value}>{children}</ApplicationContext.Provider>;
}
