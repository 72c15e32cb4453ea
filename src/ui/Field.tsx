import { cloneElement, isValidElement, type ReactNode } from 'react';

/** The width classes of styles.css, in characters (after GOV.UK's). */
const FIELD_WIDTHS = [3, 5, 10, 12, 20, 35] as const;

/** What every field shows around its control. */
export interface FieldText {
  /** The control's id; the hint and the errors take `<id>-hint` and `<id>-error`. */
  id: string;
  hint?: string;
  /** Messages under the label; the control is marked invalid while there are any. */
  errors?: string[];
}

/** The ids that describe a control (GOV.UK pattern): its hint, its errors while it has any, and `extra` (a character count). */
export const describedBy = ({ id, hint, errors }: FieldText, extra?: string) =>
  [hint && `${id}-hint`, errors?.length && `${id}-error`, extra].filter(Boolean).join(' ') || undefined;

/** Whether a control is invalid, as `aria-invalid` wants it: true, or absent. */
export const invalid = (errors?: string[]): true | undefined => (errors && errors.length > 0 ? true : undefined);

/**
 * A field's hint and errors. Each error starts with a visually hidden "Error:" and shows once; none
 * is a live region (with ~200 fields that would flood a screen reader: the error summary speaks).
 */
export function FieldMessages({ id, hint, errors }: FieldText) {
  return (
    <>
      {hint && (
        <span id={`${id}-hint`} className="field__hint">
          {hint}
        </span>
      )}
      {errors && errors.length > 0 && (
        <span id={`${id}-error`} className="field__error">
          {[...new Set(errors)].map((message) => (
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

interface Describable {
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
}

/**
 * The control a Field holds, tied to its hint and errors (`aria-describedby`, `aria-invalid`)
 * unless it says them itself: a plain `<input>` in a Field is described as the ui's controls are.
 */
function described(children: ReactNode, text: FieldText): ReactNode {
  if (!isValidElement<Describable>(children) || children.props.id !== text.id) return children;
  const { 'aria-describedby': own, 'aria-invalid': ownInvalid } = children.props;
  if (own !== undefined && ownInvalid !== undefined) return children;
  return cloneElement(children, { 'aria-describedby': own ?? describedBy(text), 'aria-invalid': ownInvalid ?? invalid(text.errors) });
}

/** A labelled field: label, hint, errors, then its control (whose id is `id`). */
export function Field({ id, label, hint, errors, className, chars, children }: FieldText & { label: ReactNode; className?: string; chars?: number | null; children: ReactNode }) {
  // `chars`: the control is sized to what it holds (a width class of styles.css; the page's
  // Content-Security-Policy allows no inline style), not the page's width.
  const width = chars ? `field--w${FIELD_WIDTHS.find((w) => w >= chars) ?? FIELD_WIDTHS.at(-1)}` : null;
  return (
    <div className={['field', className, width, invalid(errors) && 'field--invalid'].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <FieldMessages id={id} hint={hint} errors={errors} />
      {described(children, { id, hint, errors })}
    </div>
  );
}
