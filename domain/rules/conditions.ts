/**
 * Conditional display (spec/form.md §4, spec/platform.md §4): a rule compares the answer under
 * `valueKey` with a `target`; a group of branches shows the first whose rules all hold, and the
 * answers tied to the other branches are cleared unless the shown branch keeps them too.
 */
export const operators = ['notEquals', 'equals', 'lt', 'lte', 'gt', 'gte', 'notAnswered', 'answered', 'in', 'notIn'] as const;
type Operator = (typeof operators)[number];

export type AnswerValue = string | number | boolean | null | undefined;

/** An answer as the text an input shows: booleans and missing answers show nothing. */
export const answerText = (value: AnswerValue) => (value === undefined || value === null || typeof value === 'boolean' ? '' : String(value));
/** Answers and client flags (is_logged_in, is_service_user, …) that rules can read. */
export type RuleContext = Record<string, AnswerValue>;

export interface Rule {
  valueKey: string;
  operator: Operator;
  target?: AnswerValue | AnswerValue[];
}

/** Whether an answer holds something: not missing, null, empty or an unchecked box. */
export const isAnswered = (value: unknown) => value !== undefined && value !== null && value !== '' && value !== false;

/** Numbers compare as numbers ('10' > '9'); anything else as text. */
function compare(a: AnswerValue, b: AnswerValue): number | null {
  if (!isAnswered(a) || b === undefined || b === null) return null;
  const x = Number(a);
  const y = Number(b);
  if (Number.isFinite(x) && Number.isFinite(y) && String(a).trim() !== '' && String(b).trim() !== '') return x - y;
  return String(a).localeCompare(String(b));
}

const asList = (target: Rule['target']): AnswerValue[] => (Array.isArray(target) ? target : [target]);

export function holds(rule: Rule, context: RuleContext): boolean {
  const value = context[rule.valueKey];
  switch (rule.operator) {
    case 'equals':
      return value === rule.target;
    case 'notEquals':
      return value !== rule.target;
    case 'answered':
      return isAnswered(value);
    case 'notAnswered':
      return !isAnswered(value);
    case 'in':
      return isAnswered(value) && asList(rule.target).includes(value);
    case 'notIn':
      return !asList(rule.target).includes(value);
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const order = compare(value, rule.target as AnswerValue);
      if (order === null) return false;
      return rule.operator === 'lt' ? order < 0 : rule.operator === 'lte' ? order <= 0 : rule.operator === 'gt' ? order > 0 : order >= 0;
    }
  }
}

/** All rules must hold (an empty list always holds). */
export const allHold = (rules: Rule[], context: RuleContext) => rules.every((rule) => holds(rule, context));
