import { allFields, documentKeys, fieldByKey } from './catalogue';
import { allHold, type Rule, type RuleContext } from './rules/conditions';

/**
 * The materials an application still needs (issue 31): a checklist built from rules on the
 * catalogue's answers. Each item is awaiting, received or waived; the application is complete
 * when none is awaiting. The spec says nothing of materials: these rules and texts are ours.
 */

type ChecklistStatus = 'awaiting' | 'received' | 'waived';

export interface ChecklistRule {
  key: string;
  label: string;
  /** Who sends it: the school, a recommender, the applicant, or the form itself (a document it asks for). */
  from: 'school' | 'recommender' | 'applicant' | 'form';
  /** For `form`: the document answer that counts once it is uploaded and converted. */
  documentKey?: string;
  /** When the item is required: every rule holds (none: always). */
  when: Rule[];
}

/** The office's rules until an administrator sets its own. */
export const BUILT_IN_CHECKLIST: readonly ChecklistRule[] = [
  { key: 'transcript', label: 'High-school transcript', from: 'school', when: [] },
  { key: 'counselor_recommendation', label: 'Counselor recommendation', from: 'recommender', when: [] },
  { key: 'teacher_recommendation', label: 'Teacher recommendation', from: 'recommender', when: [] },
  { key: 'english_proficiency', label: 'Proof of English proficiency (TOEFL, IELTS or Duolingo)', from: 'applicant', when: [{ valueKey: 'citizenship_type', operator: 'equals', target: 'N' }] },
  { key: 'permanent_resident_card', label: 'Permanent Resident Card', from: 'form', documentKey: 'student_upload_card', when: [{ valueKey: 'citizenship_type', operator: 'equals', target: 'R' }] },
];

/** A file that arrived for an item and was converted (staff attach what came by post or e-mail). */
export interface ChecklistAttachment {
  key: string;
  by: string;
  at: string;
}

/** What staff recorded on an item: received (by post, by e-mail) or waived, with who, when and why. */
export interface ChecklistMark {
  key: string;
  status: 'received' | 'waived';
  by: string;
  reason: string | null;
  at: string;
}

export interface ChecklistItem {
  key: string;
  label: string;
  from: ChecklistRule['from'];
  status: ChecklistStatus;
  /** Who received or waived it (`the applicant` for a form document converted), and when. */
  by: string | null;
  reason: string | null;
  at: string | null;
}

export const checklistMessages = {
  reasonRequired: 'Say why this item is waived: whoever reads the application later will ask.',
  notOnChecklist: 'This item is not on this application’s checklist.',
  notSubmitted: 'Only a submitted application has a checklist.',
  materialNotFound: 'There is no such file on this application’s checklist.',
  notYoursToSend: 'This item comes from your school or a recommender, not from you.',
} as const;

/**
 * The checklist of an application: the rules its answers call for, each with its mark, else the
 * latest file attached for it once converted, else (a form document) the applicant's upload once
 * converted. Complete when nothing is awaiting.
 */
export function checklistOf(
  answers: RuleContext,
  marks: readonly ChecklistMark[],
  convertedDocuments: ReadonlySet<string>,
  attached: readonly ChecklistAttachment[] = [],
  rules: readonly ChecklistRule[] = BUILT_IN_CHECKLIST,
): { complete: boolean; items: ChecklistItem[] } {
  const markOf = new Map(marks.map((mark) => [mark.key, mark]));
  const attachmentOf = new Map<string, ChecklistAttachment>();
  for (const attachment of attached) if ((attachmentOf.get(attachment.key)?.at ?? '') <= attachment.at) attachmentOf.set(attachment.key, attachment);
  const items = rules
    .filter((rule) => allHold(rule.when, answers))
    .map((rule): ChecklistItem => {
      const mark = markOf.get(rule.key);
      const item = { key: rule.key, label: rule.label, from: rule.from };
      if (mark) return { ...item, status: mark.status, by: mark.by, reason: mark.reason, at: mark.at };
      const attachment = attachmentOf.get(rule.key);
      if (attachment) return { ...item, status: 'received', by: attachment.by, reason: null, at: attachment.at };
      if (rule.documentKey && convertedDocuments.has(rule.documentKey)) return { ...item, status: 'received', by: 'the applicant', reason: null, at: null };
      return { ...item, status: 'awaiting', by: null, reason: null, at: null };
    });
  return { complete: items.every((item) => item.status !== 'awaiting'), items };
}

/** Whether `key` is an item the answers call for. */
export const onChecklist = (answers: RuleContext, key: string, rules: readonly ChecklistRule[] = BUILT_IN_CHECKLIST) => rules.some((rule) => rule.key === key && allHold(rule.when, answers));

interface BinPlace {
  id: number;
  position: number;
}

/**
 * Whether an application whose checklist has just become complete moves to the bin the office
 * chose for complete ones: from no bin or an earlier stage, never back from a later one.
 */
export const movesOnCompletion = (current: BinPlace | null, target: BinPlace | null): boolean =>
  target !== null && (current === null || (current.id !== target.id && current.position < target.position));

/** Reminders of missing materials go out at most this often, the first this long after submission. */
export const REMINDER_INTERVAL_DAYS = 7;

/** The weekly reminder's words: what is still awaited, and where to see it or switch the reminder off. */
export function reminderMail(input: { name: string; missing: readonly string[]; link: string }): { subject: string; paragraphs: string[] } {
  return {
    subject: 'Your application: materials still awaited',
    paragraphs: [
      `Dear ${input.name},`,
      `Thank you for your application. We are still waiting for: ${input.missing.join('; ')}.`,
      `Your status page shows each item, lets you ask your recommenders again and send what is yours to send: ${input.link}`,
      'We send this reminder at most once a week while something is awaited. To stop it, untick the reminder on your status page.',
    ],
  };
}

/** The most items a checklist may have, and conditions an item. */
export const CHECKLIST_LIMITS = { items: 30, conditions: 3 } as const;

/**
 * The questions an item can be required on: single-instance choice questions with a short list of
 * options (citizenship, the waiver, …). A condition is "<question> is <option>".
 */
export const CONDITION_QUESTIONS: readonly { key: string; label: string; options: readonly { value: string; label: string }[] }[] = allFields
  .filter((field) => field.instance === 1 && !field.group.repeat && (field.type === 'radio' || field.type === 'select') && field.options && field.options.length <= 12)
  .map((field) => ({ key: field.key, label: field.label, options: field.options! }));

/** The document questions a `form` item can count (the applicant's upload once converted). */
export const DOCUMENT_QUESTIONS: readonly { key: string; label: string }[] = documentKeys.map((key) => ({ key, label: fieldByKey.get(key)?.label ?? key }));

export const checklistRuleMessages = {
  labelRequired: 'Name the item.',
  labelRepeated: 'Each item needs a name of its own.',
  documentRequired: 'Choose the question whose upload counts for this item.',
  conditionUnknown: 'Choose a question and one of its answers.',
  tooMany: `A checklist has at most ${CHECKLIST_LIMITS.items} items.`,
} as const;

/** The errors of an administrator's checklist, by `rules.<index>.<field>`; none when it can be kept. */
export function checklistRulesErrors(rules: readonly ChecklistRule[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (key: string, message: string) => (errors[key] ??= []).push(message);
  if (rules.length > CHECKLIST_LIMITS.items) add('rules', checklistRuleMessages.tooMany);
  const labels = rules.map((rule) => rule.label.trim().toLowerCase());
  rules.forEach((rule, index) => {
    if (!rule.label.trim()) add(`rules.${index}.label`, checklistRuleMessages.labelRequired);
    else if (labels.indexOf(labels[index]!) !== index) add(`rules.${index}.label`, checklistRuleMessages.labelRepeated);
    if (rule.from === 'form' && !documentKeys.includes(rule.documentKey ?? '')) add(`rules.${index}.document_key`, checklistRuleMessages.documentRequired);
    const known = (condition: Rule) => CONDITION_QUESTIONS.some((question) => question.key === condition.valueKey && question.options.some((option) => option.value === condition.target));
    if (rule.when.some((condition) => condition.operator !== 'equals' || !known(condition))) add(`rules.${index}.when`, checklistRuleMessages.conditionUnknown);
  });
  return errors;
}

/** A key for a new item from its name: `proof_of_age`, made unique among `taken`. */
export function itemKeyOf(label: string, taken: ReadonlySet<string>): string {
  const base = label.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 50) || 'item';
  const key = /^[a-z]/.test(base) ? base : `item_${base}`;
  let unique = key;
  for (let n = 2; taken.has(unique); n++) unique = `${key}_${n}`;
  return unique;
}
