/**
 * The keystroke floor of `npm run bench` (issues 14 and 33): the About page's inputs from the
 * catalogue as plain React state, no engine (no rules, no validation, no saving), each field
 * memoised with a stable setter, so a key re-renders the field typed in and nothing else: what a
 * competent engineer writes for a form of 60 inputs with the same React.
 */
import { memo, useCallback, useState } from 'react';
import { floorFields } from './fields';

type Field = (typeof floorFields)[number];

/** One field: re-rendered only when its own value changes (the setter never does). */
const FloorField = memo(function FloorField({ field, value, set }: { field: Field; value: string; set: (key: string, value: string) => void }) {
  const id = `field-${field.key}`;
  const control =
    field.type === 'select' || field.type === 'radio' ? (
      <select id={id} name={field.key} value={value} onChange={(e) => set(field.key, e.target.value)}>
        <option value="" />
        {(field.options ?? []).map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    ) : field.type === 'textarea' ? (
      <textarea id={id} name={field.key} value={value} onChange={(e) => set(field.key, e.target.value)} />
    ) : field.type === 'checkbox' ? (
      <input id={id} name={field.key} type="checkbox" checked={value === 'true'} onChange={(e) => set(field.key, String(e.target.checked))} />
    ) : (
      <input id={id} name={field.key} value={value} onChange={(e) => set(field.key, e.target.value)} />
    );
  return (
    <div>
      <label htmlFor={id}>{field.label}</label>
      {control}
    </div>
  );
});

export function FloorForm({ initial }: { initial: Record<string, string> }) {
  const [values, setValues] = useState(initial);
  const set = useCallback((key: string, value: string) => setValues((before) => ({ ...before, [key]: value })), []);
  return (
    <main>
      <h1>About You</h1>
      <form>
        {floorFields.map((field) => (
          <FloorField key={field.key} field={field} value={values[field.key] ?? ''} set={set} />
        ))}
      </form>
    </main>
  );
}
