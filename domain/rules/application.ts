/**
 * Validation of the application (spec/form.md §5), the same in the browser and on the server (which
 * validates again on submit). Every rule is data on the field's catalogue entry; this module only
 * runs them, so it names no answer key. A rule applies while its field is shown.
 */
import { allFields, catalogue, expandCatalogue, type ExpandedField } from '../catalogue';
import type { GroupDef } from '../catalogue/types';
import { DEFAULT_INPUT_MAX_LENGTH, DEFAULT_TEXTAREA_MAX_LENGTH } from '../config';
import { answerMessages } from '../messages';
import { collectErrors, type Check, type Checks, type FieldErrors } from './collect';
import { allHold, isAnswered, type RuleContext } from './conditions';
import { parseIsoDate } from './formats';
import { instanceInUse, isShown, optionsFor } from './visibility';

export type Answers = RuleContext;

interface Input {
  answers: Answers;
  now: Date;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value));
const limitedTypes = new Set(['text', 'textarea', 'lookup', 'email']);

/** The checks of one field, in the order their messages show. */
function checksOf(field: ExpandedField): Check<Input>[] {
  const checks: Check<Input>[] = [];
  const value = (answers: Answers) => answers[field.key];
  const required = field.requiredMessage ?? field.label;
  if (field.required) checks.push(({ answers }) => (instanceInUse(field, answers) && !isAnswered(value(answers)) ? required : null));
  for (const entry of field.requiredWhen ?? []) {
    checks.push(({ answers }) => (allHold(entry.when, answers) && !isAnswered(value(answers)) ? (entry.message ?? required) : null));
  }
  // A dropdown whose list follows another answer holds one of that list (issue 48).
  if (field.dependsOn) {
    checks.push(({ answers }) =>
      isAnswered(value(answers)) && isShown(field, answers) && !optionsFor(field, answers)?.some((option) => option.value === text(value(answers))) ? answerMessages.notOffered(field.label) : null,
    );
  }
  const { format, minLength, yearWindow } = field;
  if (format) {
    checks.push(({ answers }) => {
      const given = text(value(answers));
      if (!isAnswered(value(answers)) || format.pattern.test(given)) return null;
      return format.abroad?.test(given) ? format.abroad.message : format.message;
    });
  }
  if (minLength) {
    checks.push(({ answers }) =>
      allHold(minLength.when, answers) && isAnswered(value(answers)) && text(value(answers)).length < minLength.length ? minLength.message : null,
    );
  }
  if (limitedTypes.has(field.type)) {
    const limit = field.maxLength ?? (field.type === 'textarea' ? DEFAULT_TEXTAREA_MAX_LENGTH : DEFAULT_INPUT_MAX_LENGTH);
    checks.push(({ answers }) => (text(value(answers)).length > limit ? answerMessages.tooLong(field.label, limit) : null));
  }
  if (yearWindow) {
    checks.push(({ answers, now }) => {
      if (!isAnswered(value(answers))) return null; // blank is empty, not wrong; `required` speaks for it
      const year = parseIsoDate(text(value(answers)))?.getUTCFullYear() ?? null;
      const earliest = now.getFullYear() + yearWindow.from;
      const latest = now.getFullYear() + yearWindow.to;
      if (year === null || year < earliest) return yearWindow.tooEarly(earliest);
      return year > latest ? yearWindow.tooLate(latest) : null;
    });
  }
  for (const entry of field.invalidWhen ?? []) checks.push(({ answers }) => (allHold(entry.when, answers) ? entry.message : null));
  // Hidden fields ask nothing; messages of a repeated group's instance say which one they are about.
  return checks.map((check) => (input) => {
    if (!isShown(field, input.answers)) return null;
    const message = check(input);
    return message === null ? null : `${field.messagePrefix}${message}`;
  });
}

const checksByCatalogue = new WeakMap<GroupDef[], Checks<Input>>();

function applicationChecks(groups: GroupDef[]): Checks<Input> {
  let checks = checksByCatalogue.get(groups);
  if (!checks) {
    const fields = groups === catalogue ? allFields : expandCatalogue(groups);
    checks = fields.flatMap((field) => checksOf(field).map((check) => [field.key, check] as const));
    checksByCatalogue.set(groups, checks);
  }
  return checks;
}

/**
 * All messages per answer key, each once, in form order; {} when the application can be submitted.
 * Year windows move with `now`; `groups` is the catalogue (a test may pass a changed copy).
 */
export function validateApplication(answers: Answers, options: { now?: Date; groups?: GroupDef[] } = {}): FieldErrors {
  return collectErrors(applicationChecks(options.groups ?? catalogue), { answers, now: options.now ?? new Date() });
}
