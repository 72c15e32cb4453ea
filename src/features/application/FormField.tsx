import { useEffect, useState } from 'react';
import type { ExpandedField } from '../../../domain/catalogue';
import { labelOf, withEmptyOption, type Option } from '../../../domain/catalogue/options';
import { DEFAULT_INPUT_MAX_LENGTH, DEFAULT_TEXTAREA_MAX_LENGTH } from '../../../domain/config';
import { answerText, type AnswerValue, type RuleContext } from '../../../domain/rules/conditions';
import { DocumentField } from '../documents/DocumentField';
import { Described, describedBy } from './Described';
import { formatPhone, formatSsn } from '../../../domain/rules/formats';
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
  onChange: (update: Record<string, string | boolean>) => void;
}

/** A valid calendar date in yyyy-mm-dd. */
const isValidDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** One answer field of the catalogue, as the input its type calls for. */
export function FormField({ field, value, options, errors, loggedIn, answers, onChange }: FormFieldProps) {
  const invalid = errors && errors.length > 0 ? true : undefined;
  const label = field.label;

  if (field.type === 'radio') {
    return (
      <fieldset className={`field field--radio${invalid ? ' field--invalid' : ''}`} aria-describedby={describedBy(field, errors)} id={field.key}>
        <legend className="field__label">{label}</legend>
        <Described field={field} errors={errors} />
        <div className="choices">
          {field.options!.map((option, index) => (
            <label key={option.value} className="choice">
              <input
                type="radio"
                name={field.key}
                id={index === 0 ? `${field.key}-input` : undefined}
                value={option.value}
                checked={value === option.value}
                aria-invalid={invalid}
                onChange={() => onChange({ [field.key]: option.value, [`${field.key}_desc`]: option.label })}
              />{' '}
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
    );
  }

  if (field.type === 'checkbox') {
    return (
      <div className={`field field--checkbox${invalid ? ' field--invalid' : ''}`}>
        <Described field={field} errors={errors} />
        <label className="choice">
          <input
            type="checkbox"
            id={field.key}
            name={field.key}
            checked={value === true}
            aria-invalid={invalid}
            aria-describedby={describedBy(field, errors)}
            onChange={(event) => onChange({ [field.key]: event.target.checked })}
          />{' '}
          {label}
        </label>
      </div>
    );
  }

  if (field.type === 'lookup' && field.lookup) return <LookupField field={field} answers={answers ?? { [field.key]: value }} errors={errors} onChange={onChange} />;

  if (field.type === 'document') return <DocumentField field={field} errors={errors} loggedIn={loggedIn} onChange={onChange} />;

  return (
    <div className={`field${invalid ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={field.key}>
        {label}
      </label>
      <Described field={field} errors={errors} />
      <Control field={field} options={options ?? field.options ?? []} value={value} invalid={invalid} onChange={onChange} errors={errors} />
    </div>
  );
}

function Control({
  field,
  options,
  value,
  invalid,
  errors,
  onChange,
}: {
  field: ExpandedField;
  options: Option[];
  value: AnswerValue;
  invalid?: true;
  errors?: string[];
  onChange: FormFieldProps['onChange'];
}) {
  const common = {
    id: field.key,
    name: field.key,
    'aria-invalid': invalid,
    'aria-describedby': describedBy(field, errors, field.type === 'textarea' ? `${field.key}-count` : undefined),
    autoComplete: field.autoComplete,
  };
  const text = answerText(value);

  switch (field.type) {
    case 'select':
      return (
        <select
          {...common}
          className="input input--outlined"
          value={text}
          onChange={(event) => onChange({ [field.key]: event.target.value, [`${field.key}_desc`]: labelOf(options, event.target.value) })}
        >
          {withEmptyOption(options).map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      );
    case 'textarea':
      return <TextArea field={field} committed={text} common={common} onCommit={(v) => onChange({ [field.key]: v })} />;
    case 'date':
      return <DateInput committed={text} common={common} onCommit={(v) => onChange({ [field.key]: v })} />;
    case 'phone':
    case 'ssn': {
      const { format, ...input } = formattedInputs[field.type];
      return (
        <input {...common} {...input} className="input input--outlined" value={text} onChange={(event) => onChange({ [field.key]: format(event.target.value) })} />
      );
    }
    default:
      return (
        <input
          {...common}
          className="input input--outlined"
          type={field.type === 'email' ? 'email' : 'text'}
          inputMode={field.type === 'email' ? 'email' : undefined}
          value={text}
          maxLength={field.maxLength ?? DEFAULT_INPUT_MAX_LENGTH}
          onChange={(event) => onChange({ [field.key]: event.target.value })}
        />
      );
  }
}

/** Inputs that format while typing: phone (ddd) ddd-dddd and the 3-2-4 entry. */
const formattedInputs = {
  phone: { format: formatPhone, type: 'tel', inputMode: 'tel', maxLength: 14 },
  ssn: { format: formatSsn, type: 'text', inputMode: 'numeric', maxLength: 11 },
} as const;

/** A text area keeps a local draft and commits it to the answers on blur (spec/form.md §4). */
function TextArea({ field, committed, common, onCommit }: { field: ExpandedField; committed: string; common: object; onCommit: (v: string) => void }) {
  const [draft, setDraft] = useState(committed);
  useEffect(() => setDraft(committed), [committed]);
  const limit = field.maxLength ?? DEFAULT_TEXTAREA_MAX_LENGTH;
  return (
    <>
      <textarea
        {...common}
        className="input input--outlined"
        value={draft}
        maxLength={limit}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={() => draft !== committed && onCommit(draft)}
      />
      <span id={`${field.key}-count`} className="field__count">
        Character count: {draft.length} / {limit}
      </span>
    </>
  );
}

/** A date input commits only a valid date; anything else clears a previous value (spec/form.md §4). */
function DateInput({ committed, common, onCommit }: { committed: string; common: object; onCommit: (v: string) => void }) {
  const [draft, setDraft] = useState(committed);
  useEffect(() => setDraft(committed), [committed]);
  return (
    <input
      {...common}
      className="input input--outlined"
      type="date"
      value={draft}
      onChange={(event) => {
        const next = event.target.value;
        setDraft(next);
        if (isValidDate(next)) onCommit(next);
        else if (committed !== '') onCommit('');
      }}
    />
  );
}
