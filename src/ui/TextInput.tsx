import { useState, type ChangeEvent } from 'react';
import { DEFAULT_INPUT_MAX_LENGTH, DEFAULT_TEXTAREA_MAX_LENGTH } from '../../domain/config';
import { describedBy, Field, invalid } from './Field';

/** The text input variants and types of spec/platform.md §4. */
export type TextInputVariant = 'underlined' | 'outlined';
export type TextInputType = 'text' | 'textarea' | 'date' | 'password' | 'email';

interface TextInputProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  type?: TextInputType;
  variant?: TextInputVariant;
  hint?: string;
  /** Messages shown under the label; the control is marked invalid while there are any. */
  errors?: string[];
  maxLength?: number;
  required?: boolean;
  autoComplete?: string;
  inputMode?: 'text' | 'email' | 'numeric' | 'tel';
}

/** A labelled, controlled text input (the account screens' fields); a password can be shown. */
export function TextInput({
  id,
  label,
  value,
  onChange,
  onBlur,
  type = 'text',
  variant = 'outlined',
  hint,
  errors = [],
  maxLength,
  required,
  autoComplete,
  inputMode,
}: TextInputProps) {
  const [revealed, setRevealed] = useState(false);
  const limit = maxLength ?? (type === 'textarea' ? DEFAULT_TEXTAREA_MAX_LENGTH : DEFAULT_INPUT_MAX_LENGTH);
  const common = {
    id,
    name: id,
    value,
    className: `input input--${variant}`,
    'aria-invalid': invalid(errors),
    'aria-describedby': describedBy({ id, hint, errors }, type === 'textarea' ? `${id}-count` : undefined),
    required,
    onBlur,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(event.target.value),
  };

  return (
    <Field id={id} label={label} hint={hint} errors={errors}>
      {type === 'textarea' ? (
        <>
          <textarea {...common} maxLength={limit} />
          <span id={`${id}-count`} className="field__count">
            Character count: {value.length} / {limit}
          </span>
        </>
      ) : (
        <div className="field__control">
          <input
            {...common}
            type={type === 'password' && revealed ? 'text' : type}
            maxLength={type === 'date' ? undefined : limit}
            autoComplete={autoComplete}
            inputMode={inputMode}
            spellCheck={type === 'password' ? false : undefined}
          />
          {type === 'password' && (
            <button
              type="button"
              className="button button--secondary"
              aria-pressed={revealed}
              aria-controls={id}
              onClick={() => setRevealed((shown) => !shown)}
            >
              {revealed ? 'Hide' : 'Show'}
              <span className="visually-hidden"> password</span>
            </button>
          )}
        </div>
      )}
    </Field>
  );
}
