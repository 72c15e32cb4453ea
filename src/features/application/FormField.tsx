import { memo, type ReactNode } from 'react';
import type { ExpandedField } from '../../../domain/catalogue';
import type { Option } from '../../../domain/catalogue/options';
import { DEFAULT_INPUT_MAX_LENGTH, DEFAULT_TEXTAREA_MAX_LENGTH } from '../../../domain/config';
import { answerText, type AnswerValue, type RuleContext } from '../../../domain/rules/conditions';
import { formatPhone, formatSsn, showPhone } from '../../../domain/rules/formats';
import { usePhoneLibrary } from '../../lib/phoneLibrary';
import { inputChars } from './fieldWidth';
import { Checkbox } from '../../ui/Checkbox';
import { DateInput } from '../../ui/DateInput';
import { describedBy, Field, invalid } from '../../ui/Field';
import { RadioGroup } from '../../ui/RadioGroup';
import { Select } from '../../ui/Select';
import { TextArea } from '../../ui/TextArea';
import { DocumentSlot, type AnswerUpdate } from './fieldSlots';
import { LookupField } from './LookupField';

interface FormFieldProps {
  field: ExpandedField;
  value: AnswerValue;
  /** The options to offer (a conditional dropdown's depend on another answer). */
  options?: Option[];
  errors?: string[];
  loggedIn: boolean;
  /** All answers: a lookup reads and fills the other answers of its group. */
  answers?: RuleContext;
  onChange: (update: AnswerUpdate) => void;
  /** A text area's text before it is committed on blur: kept so a reload or a closed tab loses nothing. */
  onDraft?: (key: string, value: string) => void;
  /** Why the answer can no longer be changed (the server's `bound_answers`): the question is shown frozen, saying so. */
  bound?: string;
}

/** Inputs that format while typing: phone (ddd) ddd-dddd and the 3-2-4 entry (spec/form.md §4). */
const formattedInputs = {
  // 20: an international number as its country groups it ('+1 …' is a US number, 14).
  phone: { format: formatPhone, show: showPhone, type: 'tel', inputMode: 'tel', maxLength: 20 },
  ssn: { format: formatSsn, show: (value: string) => value, type: 'text', inputMode: 'numeric', maxLength: 11 },
} as const;

/** Messages compared by their text: each validation builds new lists. */
export const sameErrors = (a: string[] | undefined, b: string[] | undefined) => a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((message, i) => message === b[i]));

/**
 * One question of the form. Memoised: a keystroke re-renders the field typed in (and the fields
 * whose options, visibility or messages it changes), not the page's every input. Messages are
 * compared by their text, since each validation builds new lists.
 */
export const FormField = memo(
  FormFieldControl,
  (before, after) =>
    before.field === after.field &&
    before.value === after.value &&
    before.options === after.options &&
    before.loggedIn === after.loggedIn &&
    before.answers === after.answers &&
    before.onChange === after.onChange &&
    before.onDraft === after.onDraft &&
    before.bound === after.bound &&
    sameErrors(before.errors, after.errors),
);

/** One answer field of the catalogue, as the ui control its type calls for; choices keep their `_desc` label. */
function FormFieldControl({ field, value, options, errors, loggedIn, answers, onChange, onDraft, bound }: FormFieldProps) {
  const { key: id, hint, label } = field;
  const text = answerText(value);
  // A number from abroad: its country's plan is loaded, and the field draws again, grouped.
  usePhoneLibrary(field.type === 'phone' && text.startsWith('+'));
  const choices = options ?? field.options ?? [];
  const control = { id, invalid: invalid(errors), describedBy: describedBy({ id, hint, errors }), autoComplete: field.autoComplete };

  switch (field.type) {
    case 'radio':
      // Only a choice is ever bound (the waiver, issue 49).
      return (
        <RadioGroup
          id={id}
          legend={label}
          hint={bound ? [hint, bound].filter(Boolean).join(' ') : hint}
          errors={errors}
          value={text}
          options={choices}
          disabled={Boolean(bound)}
          onChange={(v, desc) => onChange({ [id]: v, [`${id}_desc`]: desc })}
        />
      );
    case 'checkbox':
      return <Checkbox id={id} label={label} hint={hint} errors={errors} checked={value === true} onChange={(checked) => onChange({ [id]: checked })} />;
    case 'lookup':
      return <LookupField field={field} answers={answers ?? { [id]: value }} errors={errors} onChange={onChange} />;
    case 'document':
      return <DocumentSlot field={field} errors={errors} loggedIn={loggedIn} onChange={onChange} />;
  }
  // Every other type is one control under the field's label, hint and errors.
  const commit = (v: string) => onChange({ [id]: v });
  let input: ReactNode;
  if (field.type === 'select') {
    input = <Select {...control} value={text} options={choices} onChange={(v, desc) => onChange({ [id]: v, [`${id}_desc`]: desc })} />;
  } else if (field.type === 'textarea') {
    input = <TextArea {...control} value={text} maxLength={field.maxLength ?? DEFAULT_TEXTAREA_MAX_LENGTH} onCommit={commit} onDraft={onDraft && ((v) => onDraft(id, v))} />;
  } else if (field.type === 'date') {
    input = <DateInput {...control} value={text} onCommit={commit} />;
  } else {
    // Text, e-mail, and the inputs that format while typing (phone, 3-2-4).
    const formatted = field.type === 'phone' || field.type === 'ssn' ? formattedInputs[field.type] : null;
    const email = field.type === 'email';
    input = (
      <input
        id={id}
        name={id}
        className="input input--outlined"
        aria-invalid={control.invalid}
        aria-describedby={control.describedBy}
        autoComplete={control.autoComplete}
        type={formatted?.type ?? (email ? 'email' : 'text')}
        inputMode={formatted?.inputMode ?? (email ? 'email' : undefined)}
        maxLength={formatted?.maxLength ?? field.maxLength ?? DEFAULT_INPUT_MAX_LENGTH}
        value={formatted ? formatted.show(text) : text}
        onChange={(event) => commit(formatted ? formatted.format(event.target.value) : event.target.value)}
      />
    );
  }
  return (
    <Field id={id} label={label} hint={hint} errors={errors} chars={inputChars(field, choices)}>
      {input}
    </Field>
  );
}
