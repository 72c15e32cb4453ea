import type { ExpandedField } from '../../../domain/catalogue';

/** Hint and error ids tied to the control (GOV.UK pattern); errors start with a hidden "Error:". */
export function Described({ field, errors }: { field: ExpandedField; errors?: string[] }) {
  return (
    <>
      {field.hint && (
        <span id={`${field.key}-hint`} className="field__hint">
          {field.hint}
        </span>
      )}
      {errors && errors.length > 0 && (
        <span id={`${field.key}-error`} className="field__error">
          {errors.map((message) => (
            <span key={message} style={{ display: 'block' }}>
              <span className="visually-hidden">Error: </span>
              {message}
            </span>
          ))}
        </span>
      )}
    </>
  );
}

export const describedBy = (field: ExpandedField, errors?: string[], extra?: string) =>
  [field.hint && `${field.key}-hint`, errors?.length && `${field.key}-error`, extra].filter(Boolean).join(' ') || undefined;
