import type { Option } from '../../domain/catalogue/options';
import { describedBy, FieldMessages, invalid, type FieldText } from './Field';

interface RadioGroupProps extends FieldText {
  legend: string;
  value: string | undefined;
  options: Option[];
  onChange: (value: string, label: string) => void;
  /** An answer that can no longer be changed (its hint says why): shown, not offered. */
  disabled?: boolean;
}

/**
 * Radio buttons in a fieldset whose legend is the question. The group carries the id (the error
 * summary's target); the first option has `<id>-input`, which takes focus for it.
 */
export function RadioGroup({ id, legend, hint, errors, value, options, onChange, disabled }: RadioGroupProps) {
  return (
    <fieldset className={`field field--radio${invalid(errors) ? ' field--invalid' : ''}`} aria-describedby={describedBy({ id, hint, errors })} id={id} disabled={disabled}>
      <legend className="field__label">{legend}</legend>
      <FieldMessages id={id} hint={hint} errors={errors} />
      <div className="choices">
        {options.map((option, index) => (
          <label key={option.value} className="choice">
            <input
              type="radio"
              name={id}
              id={index === 0 ? `${id}-input` : undefined}
              value={option.value}
              checked={value === option.value}
              aria-invalid={invalid(errors)}
              onChange={() => onChange(option.value, option.label)}
            />{' '}
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
