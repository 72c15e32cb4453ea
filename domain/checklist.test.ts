import { describe, expect, it } from 'vitest';
import { BUILT_IN_CHECKLIST, checklistMessages, checklistOf, checklistRuleMessages, checklistRulesErrors, CONDITION_QUESTIONS, itemKeyOf, movesOnCompletion, onChecklist, reminderMail, type ChecklistRule } from './checklist';

const none = new Set<string>();
const mark = (key: string, status: 'received' | 'waived', reason: string | null = null) => ({ key, status, by: 'officer@example.edu', reason, at: '2026-12-01T10:00:00.000Z' });
const statuses = (list: ReturnType<typeof checklistOf>) => list.items.map((item) => `${item.key}:${item.status}`);

describe('the checklist (issue 31)', () => {
  it.each([
    ['a U.S. citizen: the transcript and two recommendations', { citizenship_type: 'C' }, ['transcript', 'counselor_recommendation', 'teacher_recommendation']],
    ['a non-citizen: English proficiency too', { citizenship_type: 'N' }, ['transcript', 'counselor_recommendation', 'teacher_recommendation', 'english_proficiency']],
    ['a permanent resident: the card the form asks for', { citizenship_type: 'R' }, ['transcript', 'counselor_recommendation', 'teacher_recommendation', 'permanent_resident_card']],
  ])('%s', (_, answers, keys) => {
    expect(checklistOf(answers, [], none).items.map((item) => item.key)).toEqual(keys);
  });

  it('is complete once nothing is awaiting: received or waived, by whom and why', () => {
    const answers = { citizenship_type: 'C' };
    expect(checklistOf(answers, [], none).complete).toBe(false);
    const marks = [mark('transcript', 'received'), mark('counselor_recommendation', 'received'), mark('teacher_recommendation', 'waived', 'Home-schooled: no teacher.')];
    const list = checklistOf(answers, marks, none);
    expect(statuses(list)).toEqual(['transcript:received', 'counselor_recommendation:received', 'teacher_recommendation:waived']);
    expect(list.items[2]).toMatchObject({ by: 'officer@example.edu', reason: 'Home-schooled: no teacher.' });
    expect(list.complete).toBe(true);
  });

  it('counts a document the form asks for once it is converted, and a mark of an item no longer called for is left out', () => {
    const answers = { citizenship_type: 'R' };
    expect(checklistOf(answers, [], none).items.at(-1)).toMatchObject({ key: 'permanent_resident_card', status: 'awaiting' });
    expect(checklistOf(answers, [], new Set(['student_upload_card'])).items.at(-1)).toMatchObject({ status: 'received', by: 'the applicant' });
    expect(checklistOf({ citizenship_type: 'C' }, [mark('english_proficiency', 'received')], none).items.map((item) => item.key)).not.toContain('english_proficiency');
  });

  it('counts an item received once a file attached for it is converted (the latest one), a mark still taking precedence', () => {
    const answers = { citizenship_type: 'C' };
    const attached = [
      { key: 'transcript', by: 'mailroom@example.edu', at: '2026-12-02T09:00:00.000Z' },
      { key: 'transcript', by: 'reader@example.edu', at: '2026-12-03T09:00:00.000Z' },
      { key: 'counselor_recommendation', by: 'mailroom@example.edu', at: '2026-12-02T09:00:00.000Z' },
    ];
    const list = checklistOf(answers, [mark('counselor_recommendation', 'waived', 'Counselor on leave.')], none, attached);
    expect(list.items[0]).toMatchObject({ key: 'transcript', status: 'received', by: 'reader@example.edu', at: '2026-12-03T09:00:00.000Z' });
    expect(list.items[1]).toMatchObject({ status: 'waived', by: 'officer@example.edu', reason: 'Counselor on leave.' });
    expect(statuses(list)[2]).toBe('teacher_recommendation:awaiting');
  });

  it.each([
    ['in no bin: moves', null, { id: 3, position: 3 }, true],
    ['in an earlier stage: moves', { id: 1, position: 1 }, { id: 3, position: 3 }, true],
    ['already there: stays', { id: 3, position: 3 }, { id: 3, position: 3 }, false],
    ['in a later stage: never moves back', { id: 4, position: 4 }, { id: 3, position: 3 }, false],
    ['no bin chosen by the office: stays', { id: 1, position: 1 }, null, false],
  ])('on completion, an application %s', (_, current, target, moves) => {
    expect(movesOnCompletion(current, target)).toBe(moves);
  });

  it('reminds of what is awaited and how to stop the reminder', () => {
    expect(reminderMail({ name: 'Jordan', missing: ['High-school transcript', 'Teacher recommendation'], link: 'https://portal.example/completion' })).toEqual({
      subject: 'Your application: materials still awaited',
      paragraphs: [
        'Dear Jordan,',
        'Thank you for your application. We are still waiting for: High-school transcript; Teacher recommendation.',
        'Your status page shows each item, lets you ask your recommenders again and send what is yours to send: https://portal.example/completion',
        'We send this reminder at most once a week while something is awaited. To stop it, untick the reminder on your status page.',
      ],
    });
  });

  it('knows which items an application is asked for', () => {
    expect(onChecklist({ citizenship_type: 'N' }, 'english_proficiency')).toBe(true);
    expect(onChecklist({ citizenship_type: 'C' }, 'english_proficiency')).toBe(false);
    expect(onChecklist({}, 'nothing')).toBe(false);
  });

  it('takes an administrator’s rules: named, a form item with its question, conditions on a choice question’s answers', () => {
    expect(checklistRulesErrors(BUILT_IN_CHECKLIST)).toEqual({});
    expect(CONDITION_QUESTIONS.map((question) => question.key)).toEqual(expect.arrayContaining(['citizenship_type', 'counselor_waiver_request']));
    const rules: ChecklistRule[] = [
      { key: 'transcript', label: ' ', from: 'school', when: [] },
      { key: 'a', label: 'Portfolio', from: 'applicant', when: [{ valueKey: 'citizenship_type', operator: 'equals', target: 'Z' }] },
      { key: 'b', label: 'portfolio', from: 'form', when: [{ valueKey: 'first_name', operator: 'equals', target: 'Ann' }] },
    ];
    expect(checklistRulesErrors(rules)).toEqual({
      'rules.0.label': [checklistRuleMessages.labelRequired],
      'rules.1.when': [checklistRuleMessages.conditionUnknown],
      'rules.2.label': [checklistRuleMessages.labelRepeated],
      'rules.2.document_key': [checklistRuleMessages.documentRequired],
      'rules.2.when': [checklistRuleMessages.conditionUnknown],
    });
    expect(checklistRulesErrors(Array.from({ length: 31 }, (_, i) => ({ key: `k${i}`, label: `Item ${i}`, from: 'school' as const, when: [] })))).toEqual({ rules: [checklistRuleMessages.tooMany] });
  });

  it.each([
    ['Proof of age', [], 'proof_of_age'],
    ['Proof of age', ['proof_of_age'], 'proof_of_age_2'],
    ['2nd letter', [], 'item_2nd_letter'],
    ['Épreuve écrite', [], 'epreuve_ecrite'],
    ['***', [], 'item'],
  ])('a new item named %s gets a key of its own', (label, taken, key) => {
    expect(itemKeyOf(label, new Set(taken))).toBe(key);
  });

  it('follows an administrator’s rules when given them', () => {
    const rules: ChecklistRule[] = [{ key: 'portfolio', label: 'Portfolio', from: 'applicant', when: [{ valueKey: 'counselor_waiver_request', operator: 'equals', target: 'Y' }] }];
    expect(checklistOf({ counselor_waiver_request: 'Y' }, [], none, [], rules).items.map((item) => item.key)).toEqual(['portfolio']);
    expect(checklistOf({ counselor_waiver_request: 'N' }, [], none, [], rules)).toEqual({ complete: true, items: [] });
    expect(onChecklist({ counselor_waiver_request: 'Y' }, 'portfolio', rules)).toBe(true);
  });

  it('says each fault exactly', () => {
    expect(checklistMessages).toEqual({
      reasonRequired: 'Say why this item is waived: whoever reads the application later will ask.',
      notOnChecklist: 'This item is not on this application’s checklist.',
      notSubmitted: 'Only a submitted application has a checklist.',
      materialNotFound: 'There is no such file on this application’s checklist.',
      notYoursToSend: 'This item comes from your school or a recommender, not from you.',
    });
    expect(checklistRuleMessages).toEqual({
      labelRequired: 'Name the item.',
      labelRepeated: 'Each item needs a name of its own.',
      documentRequired: 'Choose the question whose upload counts for this item.',
      conditionUnknown: 'Choose a question and one of its answers.',
      tooMany: 'A checklist has at most 30 items.',
    });
  });
});
