/**
 * The /about floor of `npm run bench` (issue 14): the page's inputs from the catalogue as plain
 * React state, no engine (no rules, no validation, no saving). Rendered to static HTML for the
 * "usable" floor, and run in the browser for the keystroke floor.
 */
import { useState } from 'react';
import { fieldsOf, groupsOfPage } from '../../../domain/catalogue';

/** Every field of the About page (first instances of repeated groups), conditional ones shown too. */
export const floorFields = groupsOfPage('about')
  .flatMap((group) => fieldsOf(group, 1))
  .filter((field) => field.type !== 'document');

export function FloorForm({ initial }: { initial: Record<string, string> }) {
  const [values, setValues] = useState(initial);
  const set = (key: string, value: string) => setValues((before) => ({ ...before, [key]: value }));
  return (
    <main>
      <h1>About You</h1>
      <form>
        {floorFields.map((field) => {
          const id = `field-${field.key}`;
          const value = values[field.key] ?? '';
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
            <div key={field.key}>
              <label htmlFor={id}>{field.label}</label>
              {control}
            </div>
          );
        })}
      </form>
    </main>
  );
}
