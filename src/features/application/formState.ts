import { createContext, useContext } from 'react';
import type { Profile } from './api/account';
import type { StudentAnswers } from '../../lib/navState';

// The contract's status values, as generated from openapi.yaml.
import type { WebStatus } from './api/webStatus';
export type { WebStatus };

/** The client snapshot of spec/platform.md §3. */
export interface ClientSnapshot {
  username: string | null;
  last_page: string | null;
  is_logged_in: boolean;
  is_service_user: boolean;
  num_logins: number;
  has_changed_page: boolean;
  web_status: WebStatus | null;
}

/** spec/platform.md §4: none → null, one distinct → started, two → validating, three → submitted. */
export function deriveWebStatus(entries: Profile['web_status']): WebStatus | null {
  const distinct = new Set(entries.map((entry) => entry.web_status)).size;
  return distinct === 0 ? null : distinct === 1 ? 'started' : distinct === 2 ? 'validating' : 'submitted';
}

/** The count of successful logins, at least 1 (spec/platform.md §3). */
export const numLogins = (profile: Pick<Profile, 'successful_login'> | undefined) => Math.max(1, profile?.successful_login.length ?? 0);

export interface FormStateValue {
  snapshot: ClientSnapshot;
  setSnapshot: (update: Partial<ClientSnapshot>) => void;
  answers: StudentAnswers;
  setAnswers: (update: StudentAnswers) => void;
}

export const FormStateContext = createContext<FormStateValue | null>(null);

export function useFormState(): FormStateValue {
  const value = useContext(FormStateContext);
  if (!value) throw new Error('useFormState must be used inside the form root');
  return value;
}
