import { fieldsOf } from '../catalogue';
import type { GroupDef } from '../catalogue/types';
import { isAnswered, type AnswerValue } from './conditions';

type Answers = Record<string, AnswerValue>;

/** Every answer key of one instance of a repeated group, with the `_desc` companions of its choices. */
function keysOf(group: GroupDef, instance: number): string[] {
  return fieldsOf(group, instance).flatMap((field) => (field.type === 'select' || field.type === 'radio' ? [field.key, `${field.key}_desc`] : [field.key]));
}

/** Whether an instance holds any answer (then removing it asks first). */
export const instanceHasAnswers = (group: GroupDef, instance: number, answers: Answers): boolean => keysOf(group, instance).some((key) => isAnswered(answers[key]));

/**
 * The answers after removing instance `instance` of `count` shown (issue 28): the later instances
 * move up one (sibling 3 becomes sibling 2), and the last one's answers are cleared, as the spec
 * clears the answers of what is no longer shown. Returned as the update to apply ('' clears).
 */
export function removeInstance(group: GroupDef, instance: number, count: number, answers: Answers): Record<string, string | number | boolean> {
  const update: Record<string, string | number | boolean> = {};
  for (let n = instance; n <= count; n++) {
    const into = keysOf(group, n);
    const from = n < count ? keysOf(group, n + 1) : null;
    into.forEach((key, i) => {
      const value = from ? answers[from[i]!] : undefined;
      update[key] = value === undefined || value === null ? '' : value;
    });
  }
  return update;
}
