// @vitest-environment node -- a pure reducer: no DOM
import { describe, expect, it } from 'vitest';
import { parseAnswersBase } from '../../../../domain/rules/answersBase';
import { answersReducer, initialAnswersState, planSave, unsaved, type AnswersEvent, type AnswersState } from './answersMachine';

/** A page editing an account that holds `known` at revision 4, with `rest` on top. */
const editing = (rest: Partial<AnswersState> = {}): AnswersState => {
  const known = rest.known ?? { first_name: 'Ann', city: 'Denver' };
  return { ...initialAnswersState, phase: 'editing', known, revision: 4, shown: rest.shown ?? known, ...rest };
};

const conflictOnCity = {
  key: 'city',
  mine: 'Boulder',
  mineShown: 'Boulder',
  theirs: { city: 'Lakewood' },
  theirsShown: 'Lakewood',
};

/** Each transition of the answers' reducer: the state before, the event, what holds after. */
const transitions: Array<[string, AnswersState, AnswersEvent, Partial<AnswersState>]> = [
  ['a visitor sees what they carried here', initialAnswersState, { type: 'visiting', answers: { first_name: 'Vi' } }, { phase: 'visitor', shown: { first_name: 'Vi' }, edits: { first_name: 'Vi' } }],
  [
    "the profile loads: the account's answers, with what was carried on top, as edits to save",
    initialAnswersState,
    { type: 'loaded', answers: { first_name: 'Ann' }, revision: 7, submitted: false, carried: { city: 'Denver' }, mayHold: { city: ['Denver'] } },
    { phase: 'editing', known: { first_name: 'Ann' }, revision: 7, shown: { first_name: 'Ann', city: 'Denver' }, edits: { city: 'Denver' }, mayHold: { city: ['Denver'] } },
  ],
  ['a submitted application loads frozen', initialAnswersState, { type: 'loaded', answers: { first_name: 'Ann' }, revision: 9, submitted: true, carried: {}, mayHold: {} }, { phase: 'submitted' }],
  [
    'loading clears what the answers hide (a county of a country no longer chosen)',
    initialAnswersState,
    { type: 'loaded', answers: { mailing_addr_same_as_perm_addr: 'Y', mailing_city: 'Old' }, revision: 1, submitted: false, carried: {}, mayHold: {} },
    { shown: { mailing_addr_same_as_perm_addr: 'Y', mailing_city: '' }, edits: { mailing_city: '' } },
  ],
  [
    'the profile read again: shown under what the applicant changed',
    editing({ edits: { first_name: 'Anne' }, shown: { first_name: 'Anne', city: 'Denver' } }),
    { type: 'profileRead', answers: { first_name: 'Ann', city: 'Boulder' } },
    { shown: { first_name: 'Anne', city: 'Boulder' } },
  ],
  [
    'typed: shown and kept as an edit; its draft and any hold go',
    editing({ drafts: { city: 'Bou' }, held: { city: { city: 'Lakewood' } } }),
    { type: 'typed', update: { city: 'Boulder' } },
    { shown: { first_name: 'Ann', city: 'Boulder' }, edits: { city: 'Boulder' }, drafts: {}, held: {} },
  ],
  [
    'typed: what the change hides is cleared in the same step',
    editing({ known: { mailing_addr_same_as_perm_addr: 'N', mailing_city: 'Aurora' } }),
    { type: 'typed', update: { mailing_addr_same_as_perm_addr: 'Y' } },
    { shown: { mailing_addr_same_as_perm_addr: 'Y', mailing_city: '' }, edits: { mailing_addr_same_as_perm_addr: 'Y', mailing_city: '' } },
  ],
  ['drafted: kept, not shown (the text area shows its own text)', editing(), { type: 'drafted', key: 'accommodations', value: 'Extra' }, { drafts: { accommodations: 'Extra' }, shown: { first_name: 'Ann', city: 'Denver' } }],
  ['a save sent is on its way', editing(), { type: 'saveSent', id: 1, body: { city: 'Boulder' } }, { sending: [{ id: 1, body: { city: 'Boulder' } }] }],
  [
    'acknowledged: the account holds what was sent, at the revision given; the second value it might have held goes',
    editing({ sending: [{ id: 1, body: { city: 'Boulder' } }], mayHold: { city: ['Bo'] }, shown: { first_name: 'Ann', city: 'Boulder' } }),
    { type: 'saveAcknowledged', id: 1, revision: 5, current: {} },
    { sending: [], known: { first_name: 'Ann', city: 'Boulder' }, revision: 5, mayHold: {}, lastSave: 'saved' },
  ],
  [
    'acknowledged with a newer answer it sent unchanged: shown where the page still shows what it sent',
    editing({ sending: [{ id: 1, body: { first_name: 'Ann', city: 'Boulder' } }], shown: { first_name: 'Ann', city: 'Boulder' } }),
    { type: 'saveAcknowledged', id: 1, revision: null, current: { first_name: 'Anna' } },
    { known: { first_name: 'Anna', city: 'Boulder' }, shown: { first_name: 'Anna', city: 'Boulder' }, revision: null },
  ],
  [
    'acknowledged with a newer answer typed over since: the page keeps its own',
    editing({ sending: [{ id: 1, body: { first_name: 'Ann' } }], shown: { first_name: 'Annie', city: 'Denver' } }),
    { type: 'saveAcknowledged', id: 1, revision: null, current: { first_name: 'Anna' } },
    { shown: { first_name: 'Annie', city: 'Denver' }, known: { first_name: 'Ann', city: 'Denver' } },
  ],
  [
    'a conflict: asked about, nothing known changes but the revision; newer answers not in conflict are taken',
    editing({ sending: [{ id: 1, body: { city: 'Boulder', first_name: 'Ann' } }], shown: { first_name: 'Ann', city: 'Boulder' } }),
    { type: 'saveConflicted', id: 1, conflicts: ['city'], current: { city: 'Lakewood', first_name: 'Anna' } },
    { sending: [], revision: null, conflicts: [conflictOnCity], shown: { first_name: 'Anna', city: 'Boulder' }, known: { first_name: 'Anna', city: 'Denver' } },
  ],
  [
    'a second conflict while one is asked: both asked',
    editing({ conflicts: [conflictOnCity], sending: [{ id: 2, body: { first_name: 'Annie' } }], shown: { first_name: 'Annie', city: 'Boulder' } }),
    { type: 'saveConflicted', id: 2, conflicts: ['first_name'], current: { first_name: 'Anna' } },
    { conflicts: [conflictOnCity, { key: 'first_name', mine: 'Annie', mineShown: 'Annie', theirs: { first_name: 'Anna' }, theirsShown: 'Anna' }] },
  ],
  ['failed: nothing known changes', editing({ sending: [{ id: 1, body: { city: 'Boulder' } }] }), { type: 'saveFailed', id: 1 }, { sending: [], known: { first_name: 'Ann', city: 'Denver' }, lastSave: 'failed' }],
  [
    'answered "the newer one": shown and known',
    editing({ conflicts: [conflictOnCity], shown: { first_name: 'Ann', city: 'Boulder' } }),
    { type: 'conflictAnswered', choices: { city: 'theirs' } },
    { conflicts: [], known: { first_name: 'Ann', city: 'Lakewood' }, shown: { first_name: 'Ann', city: 'Lakewood' } },
  ],
  [
    'answered "mine": the newer one becomes the base the next save overwrites',
    editing({ conflicts: [conflictOnCity], shown: { first_name: 'Ann', city: 'Boulder' } }),
    { type: 'conflictAnswered', choices: { city: 'mine' } },
    { conflicts: [], known: { first_name: 'Ann', city: 'Lakewood' }, shown: { first_name: 'Ann', city: 'Boulder' } },
  ],
  [
    'closed without a choice: nothing known changes, the answer is held',
    editing({ conflicts: [conflictOnCity], shown: { first_name: 'Ann', city: 'Boulder' } }),
    { type: 'conflictClosed' },
    { conflicts: [], held: { city: { city: 'Lakewood' } }, known: { first_name: 'Ann', city: 'Denver' }, shown: { first_name: 'Ann', city: 'Boulder' } },
  ],
  [
    'another tab saved: taken where this page changed nothing',
    editing({ shown: { first_name: 'Annie', city: 'Denver' } }),
    { type: 'otherTabSaved', answers: { first_name: 'Anna', city: 'Aurora' } },
    { shown: { first_name: 'Annie', city: 'Aurora' }, known: { first_name: 'Ann', city: 'Aurora' } },
  ],
  [
    'another tab saved over a text area being typed in: the typing is kept',
    editing({ known: { accommodations: 'Ex' }, drafts: { accommodations: 'Extra' } }),
    { type: 'otherTabSaved', answers: { accommodations: 'Other' } },
    { shown: { accommodations: 'Ex' }, known: { accommodations: 'Ex' } },
  ],
  ['hidden and shown again', editing(), { type: 'pageHidden' }, { hidden: true }],
  ['shown again', editing({ hidden: true }), { type: 'pageShown' }, { hidden: false }],
  ['submitted', editing(), { type: 'submitted' }, { phase: 'submitted' }],
  ['left (signed out, another account)', editing(), { type: 'left' }, { phase: 'left' }],
  ['a late answer to a save the state never sent is ignored', editing(), { type: 'saveAcknowledged', id: 9, revision: 1, current: {} }, { revision: 4 }],
];

describe('the answers reducer, transition by transition', () => {
  it.each(transitions)('%s', (_, before, event, after) => {
    const state = answersReducer(before, event);
    expect(state).toMatchObject(after);
    // Pure: the state before is untouched.
    expect(answersReducer(before, event)).toEqual(state);
  });
});

const header = (state: AnswersState, kind: Parameters<typeof planSave>[1]) => {
  const plan = planSave(state, kind);
  if (typeof plan === 'string') return plan;
  const base = parseAnswersBase(plan.base)!;
  return { body: plan.body, revision: base.revision, known: Object.fromEntries(base.known), alsoKnown: Object.fromEntries(base.alsoKnown) };
};

describe('what a save sends', () => {
  it('autosave: the changes, with what the account held for each and the revision the page knows', () => {
    expect(header(editing({ shown: { first_name: 'Ann', city: 'Boulder' } }), 'changes')).toEqual({
      body: { city: 'Boulder' },
      revision: 4,
      known: { city: { text: 'Denver' } },
      alsoKnown: {},
    });
  });

  it('a text area being typed in goes with it; an answer removed is sent empty', () => {
    const state = editing({ drafts: { accommodations: 'Extra time' }, shown: { first_name: 'Ann' } });
    expect(header(state, 'changes')).toMatchObject({ body: { accommodations: 'Extra time', city: '' } });
  });

  it('the buttons: every answer, the unchanged ones without an entry (the server says when they are older)', () => {
    expect(header(editing({ shown: { first_name: 'Ann', city: 'Boulder' } }), 'all')).toMatchObject({ body: { first_name: 'Ann', city: 'Boulder' }, known: { city: { text: 'Denver' } } });
  });

  it('after a reload, an answer a closing page may have saved is known both ways (issue 48)', () => {
    const state = answersReducer(initialAnswersState, {
      type: 'loaded',
      answers: { accommodations: 'Extra time' },
      revision: 3,
      submitted: false,
      carried: { accommodations: 'Extra time on tests' },
      mayHold: { accommodations: ['Extra time on tests'] },
    });
    const typed = answersReducer(state, { type: 'drafted', key: 'accommodations', value: 'Extra time on tests abc' });
    expect(header(typed, 'changes')).toEqual({
      body: { accommodations: 'Extra time on tests abc' },
      revision: 3,
      known: { accommodations: { text: 'Extra time' } },
      alsoKnown: { accommodations: [{ text: 'Extra time on tests' }] },
    });
  });

  it('beside several saves on their way: the account may hold what each sent, or what it held before them', () => {
    const state = editing({ shown: { first_name: 'Ann', city: 'Golden' }, sending: [{ id: 1, body: { city: 'Boulder' } }, { id: 2, body: { city: 'Aurora' } }] });
    expect(header(state, 'lastWords')).toEqual({
      body: { city: 'Golden' },
      revision: null,
      known: { city: { text: 'Aurora' } },
      alsoKnown: { city: [{ text: 'Denver' }, { text: 'Boulder' }] },
    });
  });

  it('beside a closing save on its way: no revision, and the answer it sent known both ways', () => {
    const state = editing({ shown: { first_name: 'Ann', city: 'Boulder' }, sending: [{ id: 1, body: { city: 'Boulder' } }] });
    expect(header(state, 'changes')).toEqual({ body: { city: 'Boulder' }, revision: null, known: { city: { text: 'Boulder' } }, alsoKnown: { city: [{ text: 'Denver' }] } });
  });

  it('a held answer waits for a button; a closing page does not send it', () => {
    const state = editing({ shown: { first_name: 'Annie', city: 'Boulder' }, held: { city: { city: 'Lakewood' } } });
    expect(header(state, 'changes')).toMatchObject({ body: { first_name: 'Annie' } });
    expect(header(state, 'lastWords')).toMatchObject({ body: { first_name: 'Annie' } });
    expect(header(state, 'all')).toMatchObject({ body: { first_name: 'Annie', city: 'Boulder' } });
  });

  it('while the question is open: the buttons wait, the rest of what was typed goes without the answers in question', () => {
    const asking = editing({ shown: { first_name: 'Annie', city: 'Boulder' }, conflicts: [conflictOnCity] });
    expect(planSave(asking, 'all')).toBe('asking');
    expect(header(asking, 'changes')).toMatchObject({ body: { first_name: 'Annie' } });
    expect(header(asking, 'lastWords')).toMatchObject({ body: { first_name: 'Annie' } });
    expect(planSave(editing({ shown: { first_name: 'Ann', city: 'Boulder' }, conflicts: [conflictOnCity] }), 'changes')).toBe('nothing');
  });

  it('nothing once the page has gone but its last words, nothing for a visitor', () => {
    const changed = { shown: { first_name: 'Ann', city: 'Boulder' } };
    expect(planSave(editing({ ...changed, hidden: true }), 'changes')).toBe('nothing');
    expect(header(editing({ ...changed, hidden: true }), 'lastWords')).toMatchObject({ body: { city: 'Boulder' } });
    expect(planSave({ ...editing(changed), phase: 'visitor' }, 'all')).toBe('nothing');
    expect(planSave(editing(), 'changes')).toBe('nothing');
  });

  it('a long text is known by its hash; a document mark and an unknown key are never sent', () => {
    const essay = 'Why I want to study here. '.repeat(10);
    const state = editing({ known: { additional_info_essay: essay }, shown: { additional_info_essay: `${essay}!`, additional_info_doc: 'ANSWERED', not_a_question: 'x' } });
    const plan = header(state, 'changes');
    expect(plan).toMatchObject({ body: { additional_info_essay: `${essay}!` } });
    expect(typeof plan === 'object' && plan.known.additional_info_essay).toEqual({ sha256: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });
});

describe('what is kept in the browser until saved', () => {
  it('the changes and drafts, with what the account held for each', () => {
    expect(unsaved(editing({ shown: { first_name: 'Ann', city: 'Boulder' }, drafts: { accommodations: 'Ex' } }))).toEqual({
      answers: { city: 'Boulder', accommodations: 'Ex' },
      base: { city: 'Denver', accommodations: '' },
      sent: {},
    });
  });

  it('with the values of each sent and not answered yet: the next page may find any of them saved', () => {
    const state = editing({ shown: { first_name: 'Ann', city: 'Aurora' }, sending: [{ id: 1, body: { city: 'Boulder' } }, { id: 2, body: { city: 'Aurora', first_name: 'Ann' } }] });
    expect(unsaved(state)).toEqual({ answers: { city: 'Aurora' }, base: { city: 'Denver' }, sent: { city: ['Boulder', 'Aurora'] } });
  });
});
