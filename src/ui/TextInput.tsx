import { useState, type ChangeEvent } from 'react';
import { DEFAULT_INPUT_MAX_LENGTH, DEFAULT_TEXTAREA_MAX_LENGTH } from '../../domain/config';

export type TextInputVariant = 'underlined' | 'outlined';
export type TextInputType = 'text' | 'textarea' | 'date' | 'password';

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

/**
 * A labelled text input. Hint and error are tied to the control by aria-describedby
 * (`<id>-hint`, `<id>-error`); the error starts with a visually hidden "Error:" and is not a live
 * region (with many fields that would flood a screen reader: the error summary announces instead).
 */
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
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const countId = `${id}-count`;
  const hasErrors = errors.length > 0;
  const describedBy = [hint && hintId, hasErrors && errorId, type === 'textarea' && countId].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: id,
    value,
    className: `input input--${variant}`,
    'aria-invalid': hasErrors || undefined,
    'aria-describedby': describedBy,
    required,
    onBlur,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(event.target.value),
  };

  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {hint && (
        <span id={hintId} className="field__hint">
          {hint}
        </span>
      )}
      {hasErrors && (
        <span id={errorId} className="field__error">
          {[...new Set(errors)].map((message) => (
            <span key={message} style={{ display: 'block' }}>
              <span className="visually-hidden">Error: </span>
              {message}
            </span>
          ))}
        </span>
      )}
      {type === 'textarea' ? (
        <>
          <textarea {...common} maxLength={limit} />
          <span id={countId} className="field__count">
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
    </div>
  );
}
