import { describedBy, FieldMessages, invalid, type FieldText } from './Field';

interface CheckboxProps extends FieldText {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/** One checkbox with its label beside it; hint and errors above, tied to the box. */
export function Checkbox({ id, label, hint, errors, checked, onChange }: CheckboxProps) {
  return (
    <div className={`field field--checkbox${invalid(errors) ? ' field--invalid' : ''}`}>
      <FieldMessages id={id} hint={hint} errors={errors} />
      <label className="choice">
        <input
          type="checkbox"
          id={id}
          name={id}
          checked={checked}
          aria-invalid={invalid(errors)}
          aria-describedby={describedBy({ id, hint, errors })}
          onChange={(event) => onChange(event.target.checked)}
        />{' '}
        {label}
      </label>
    </div>
  );
}
