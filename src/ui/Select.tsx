import { labelOf, withEmptyOption, type Option } from '../../domain/catalogue/options';

interface SelectProps {
  id: string;
  value: string;
  options: Option[];
  /** The chosen value and its label (for a `_desc` companion; '' for the empty option). */
  onChange: (value: string, label: string) => void;
  invalid?: true;
  describedBy?: string;
  autoComplete?: string;
}

/** A native dropdown whose first option is the empty value shown as '--' (spec/form.md §3). */
export function Select({ id, value, options, onChange, invalid, describedBy, autoComplete }: SelectProps) {
  const all = withEmptyOption(options);
  return (
    <select
      id={id}
      name={id}
      className="input input--outlined"
      value={value}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      autoComplete={autoComplete}
      onChange={(event) => onChange(event.target.value, labelOf(options, event.target.value))}
    >
      {all.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
