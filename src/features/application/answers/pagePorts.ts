import { ServerError, UnauthorizedError } from '../../../lib/api/errors';
import { putAnswer } from '../api/answer';
import type { StudentAnswers } from './answersMachine';
import type { AnswersPorts, PutOutcome } from './answersSession';

/** Worth trying again later: no answer at all (offline), the server away or busy. A refusal is not. */
const passing = (error: unknown) => !(error instanceof UnauthorizedError) && (!(error instanceof ServerError) || error.status === null || error.status >= 500 || error.status === 429 || error.status === 408);

const stringsOf = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
const answersOf = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as StudentAnswers) : {});

/** PUT /api/answer through the app's client, read as the session reads an outcome. */
async function put(body: StudentAnswers, options: { base: string; keepalive: boolean }): Promise<PutOutcome> {
  try {
    const result = await putAnswer(body, options);
    return { kind: 'saved', revision: result.revision ?? null, current: result.current ?? {} };
  } catch (error) {
    if (error instanceof ServerError && error.code === 'ANSWERS_CHANGED') {
      return { kind: 'conflict', conflicts: stringsOf(error.body?.conflicts), current: answersOf(error.body?.current), message: error.message };
    }
    return { kind: 'failed', error, retry: passing(error) };
  }
}

/** The page's ports for its answers session: the API client, the window's timers, and what it tells the other tabs. */
export function pagePorts({ saved }: { saved: AnswersPorts['saved'] }): AnswersPorts {
  return {
    put,
    saved,
    clock: {
      now: () => Date.now(),
      // Looked up per call: a test's fake timers are the ones used.
      setTimeout: (run, ms) => setTimeout(run, ms),
      clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
    },
  };
}
