// @vitest-environment node -- the session's I/O is its ports: no DOM
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseAnswersBase } from '../../../../domain/rules/answersBase';
import { AnswersConflictError } from '../answerConflicts';
import { initialAnswersState, type StudentAnswers } from './answersMachine';
import { AUTOSAVE_DELAY_MS, createAnswersSession, RETRY_DELAYS_MS, type PutOutcome } from './answersSession';

interface Call {
  body: StudentAnswers;
  base: ReturnType<typeof parseAnswersBase>;
  keepalive: boolean;
  answer(outcome: PutOutcome): void;
}

/** A session editing an account that holds `known`; each call waits until the test answers it. */
function sessionOver(known: StudentAnswers = { first_name: 'Ann' }) {
  const calls: Call[] = [];
  const told: StudentAnswers[] = [];
  const session = createAnswersSession(
    {
      put: (body, { base, keepalive }) => new Promise((answer) => calls.push({ body, base: parseAnswersBase(base), keepalive, answer })),
      saved: (answers) => told.push(answers),
      clock: { now: () => Date.now(), setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>) },
    },
    { ...initialAnswersState, phase: 'editing', known, shown: known, revision: 3 },
  );
  return { session, calls, told };
}
const saved = (revision: number | null = null, current: StudentAnswers = {}): PutOutcome => ({ kind: 'saved', revision, current });

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
afterEach(() => vi.useRealTimers());

describe('autosave waits for typing to stop', () => {
  it('saves 1.5 s after the last key, once, with every key typed', async () => {
    const { session, calls } = sessionOver();
    for (const name of ['A', 'An', 'Ann', 'Anne']) {
      session.set({ first_name: name });
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 1000);
    expect(calls.map((call) => call.body)).toEqual([{ first_name: 'Anne' }]);
    calls[0]!.answer(saved(4));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(1);
    expect(session.state().known).toEqual({ first_name: 'Anne' });
  });

  it("saves a text area's text as typing pauses, before it is committed", async () => {
    const { session, calls } = sessionOver();
    session.dispatch({ type: 'drafted', key: 'accommodations', value: 'Extra time' });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
    expect(calls.map((call) => call.body)).toEqual([{ accommodations: 'Extra time' }]);
  });

  it('one save at a time: the next goes once the one before is answered, from what it left', async () => {
    const { session, calls } = sessionOver();
    session.set({ first_name: 'Anne' });
    const first = session.save('changes');
    await vi.advanceTimersByTimeAsync(0);
    session.set({ first_name: 'Annie' });
    const second = session.save('changes');
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((call) => call.body)).toEqual([{ first_name: 'Anne' }]);
    calls[0]!.answer(saved(4));
    await first;
    await vi.advanceTimersByTimeAsync(0);
    expect(calls[1]!.body).toEqual({ first_name: 'Annie' });
    expect(calls[1]!.base).toEqual({ revision: 4, known: new Map([['first_name', { text: 'Anne' }]]), alsoKnown: new Map() });
    calls[1]!.answer(saved(5));
    await second;
  });
});

describe('a failed save', () => {
  it('is tried again after 5 s, then 10 s, and stops once saved', async () => {
    const { session, calls } = sessionOver();
    session.set({ first_name: 'Anne' });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
    calls[0]!.answer({ kind: 'failed', error: new Error('offline'), retry: true });
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]! - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    calls[1]!.answer({ kind: 'failed', error: new Error('offline'), retry: true });
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[1]!);
    expect(calls).toHaveLength(3);
    calls[2]!.answer(saved());
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(3);
    expect(session.state().lastSave).toBe('saved');
  });

  it('is not tried again when it was refused (the session over, another account signed in)', async () => {
    const { session, calls } = sessionOver();
    session.set({ first_name: 'Anne' });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
    calls[0]!.answer({ kind: 'failed', error: new Error('refused'), retry: false });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(1);
    expect(session.state().lastSave).toBe('failed');
  });
});

describe('answers changed here and elsewhere', () => {
  it('a conflict is asked about; the buttons wait for the answer, the rest goes meanwhile; the answer is saved', async () => {
    const { session, calls } = sessionOver({ first_name: 'Ann', city: 'Denver' });
    session.set({ city: 'Boulder' });
    const refused = session.save('changes');
    await vi.advanceTimersByTimeAsync(0);
    calls[0]!.answer({ kind: 'conflict', conflicts: ['city'], current: { city: 'Lakewood' }, message: 'changed' });
    await expect(refused).rejects.toBeInstanceOf(AnswersConflictError);
    expect(session.state().conflicts.map((c) => c.key)).toEqual(['city']);
    await expect(session.save('all')).rejects.toBeInstanceOf(AnswersConflictError);
    session.set({ first_name: 'Anne' });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
    expect(calls.map((call) => call.body)).toEqual([{ city: 'Boulder' }, { first_name: 'Anne' }]);
    calls[1]!.answer(saved());
    await vi.advanceTimersByTimeAsync(0);
    session.dispatch({ type: 'conflictAnswered', choices: { city: 'mine' } });
    const again = session.save('all');
    await vi.advanceTimersByTimeAsync(0);
    expect(calls[2]!.body).toMatchObject({ city: 'Boulder', first_name: 'Anne' });
    expect(calls[2]!.base?.known.get('city')).toEqual({ text: 'Lakewood' });
    calls[2]!.answer(saved());
    await again;
  });
});

describe('a page that is hidden or closes', () => {
  it('sends its last words at once as a keepalive call, beside a save on its way, which it counts either way', async () => {
    const { session, calls } = sessionOver({ first_name: 'Ann', city: 'Denver' });
    session.set({ city: 'Boulder' });
    void session.save('changes');
    await vi.advanceTimersByTimeAsync(0);
    session.set({ city: 'Aurora' });
    session.lastWords();
    session.dispatch({ type: 'pageHidden' });
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({ body: { city: 'Aurora' }, keepalive: true });
    expect(calls[1]!.base).toEqual({ revision: null, known: new Map([['city', { text: 'Boulder' }]]), alsoKnown: new Map([['city', [{ text: 'Denver' }]]]) });
    // Gone: autosave sends nothing more.
    session.set({ city: 'Golden' });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2);
    expect(calls).toHaveLength(2);
  });

  it('tells the other tabs what it wrote, not the newer answers it was told of', async () => {
    const { session, calls, told } = sessionOver({ first_name: 'Ann', city: 'Denver' });
    session.set({ city: 'Boulder' });
    const all = session.save('all');
    await vi.advanceTimersByTimeAsync(0);
    calls[0]!.answer(saved(null, { first_name: 'Anna' }));
    await all;
    expect(told).toEqual([{ city: 'Boulder' }]);
    expect(session.get()).toEqual({ first_name: 'Anna', city: 'Boulder' });
  });
});
