import { act, useState } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formHydrated } from './drawnForm';
import { holdUntilStarted, type PrehydrateWindow } from './prehydrate';

type ActGlobal = typeof globalThis & { IS_REACT_ACT_ENVIRONMENT?: boolean };
const win = window as Window & PrehydrateWindow;

/** Every kind of control the form has, each held by the app as the form's fields are (controlled). */
function Fields() {
  const [values, setValues] = useState({ name: 'Drawn', note: 'Drawn note', noteCommitted: 'Drawn note', pronouns: 'she', sms: false, citizen: 'us', city: '' });
  const set = (update: Partial<typeof values>) => setValues((current) => ({ ...current, ...update }));
  const [noteDraft, setNoteDraft] = useState(values.note);
  return (
    <form>
      <input id="name" value={values.name} onChange={(event) => set({ name: event.target.value })} />
      {/* A text area commits on blur, as the form's do. */}
      <textarea id="note" value={noteDraft} onChange={(event) => setNoteDraft(event.target.value)} onBlur={() => set({ noteCommitted: noteDraft })} />
      <select id="pronouns" value={values.pronouns} onChange={(event) => set({ pronouns: event.target.value })}>
        <option value="she">she</option>
        <option value="they">they</option>
      </select>
      <input id="sms" type="checkbox" checked={values.sms} onChange={(event) => set({ sms: event.target.checked })} />
      {['us', 'other'].map((value) => (
        <input key={value} id={`citizen-${value}`} type="radio" name="citizen" value={value} checked={values.citizen === value} onChange={() => set({ citizen: value })} />
      ))}
      <input id="city" value={values.city} onChange={(event) => set({ city: event.target.value })} />
      <output>{JSON.stringify({ ...values, note: undefined })}</output>
    </form>
  );
}

const held = () => JSON.parse(document.querySelector('output')!.textContent!) as Record<string, unknown>;

/** The form drawn on the server, with the holding script running, as the page arrives. */
function drawn() {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<Fields />);
  document.body.append(container);
  holdUntilStarted(win);
  return container;
}

/** Every control changed, as a person does it, before the app's code has come. */
function typeIn(container: HTMLElement) {
  const $ = <T extends Element>(id: string) => container.querySelector<T>(`#${id}`)!;
  const type = (field: HTMLInputElement | HTMLTextAreaElement, text: string) => {
    field.value = text;
    field.dispatchEvent(new Event('input', { bubbles: true }));
  };
  type($('name'), 'Typed early');
  type($('note'), 'A note typed early');
  $<HTMLSelectElement>('pronouns').value = 'they';
  $('pronouns').dispatchEvent(new Event('change', { bubbles: true }));
  $<HTMLInputElement>('sms').click();
  // A choice changed twice: the last one counts.
  $<HTMLInputElement>('citizen-other').click();
  $<HTMLInputElement>('citizen-us').click();
  $<HTMLInputElement>('citizen-other').click();
  // Being typed in as the code arrives: not left yet.
  $<HTMLInputElement>('city').focus();
  type($('city'), 'Spring');
}

/** The app's code has come: the form hydrates (or is drawn again), and its root's first commit says so. */
async function hydrate(container: HTMLElement, again = false) {
  await act(async () => {
    if (again) createRoot(container).render(<Fields />);
    else hydrateRoot(container, <Fields />);
  });
  win.portalDrawnForm = true;
  // As in the browser, where each event's changes are rendered before the next event.
  (globalThis as ActGlobal).IS_REACT_ACT_ENVIRONMENT = false;
  formHydrated(win);
  await new Promise((resolve) => setTimeout(resolve));
}

beforeEach(() => {
  delete win.portalStarted;
});
afterEach(() => {
  (globalThis as ActGlobal).IS_REACT_ACT_ENVIRONMENT = true;
  win.portalStarted = true;
  document.body.replaceChildren();
});

describe('a form the server drew, typed in before the app ran (src/main.tsx hydrates it)', () => {
  it('hands every changed control to the app once hydrated: text, text area (committed), select, checkbox, radio', async () => {
    const container = drawn();
    typeIn(container);
    await hydrate(container);
    expect(win.portalStarted).toBe(true);
    expect(held()).toEqual({ name: 'Typed early', noteCommitted: 'A note typed early', pronouns: 'they', sms: true, citizen: 'other', city: 'Spring' });
    // The fields still show what was typed, and the one being typed in keeps the focus.
    expect(container.querySelector<HTMLInputElement>('#name')!.value).toBe('Typed early');
    expect(container.querySelector<HTMLInputElement>('#citizen-us')!.checked).toBe(false);
    expect(document.activeElement).toBe(container.querySelector('#city'));
  });

  it('hands them to the same questions when the app draws the page again (this browser held answers the server could not see)', async () => {
    const container = drawn();
    const drawnField = container.querySelector('#name');
    typeIn(container);
    await hydrate(container, true);
    expect(container.querySelector('#name')).not.toBe(drawnField);
    expect(held()).toEqual({ name: 'Typed early', noteCommitted: 'A note typed early', pronouns: 'they', sms: true, citizen: 'other', city: 'Spring' });
  });

  it('is needed: hydration alone leaves the app holding the drawn answers (and a text area showing them)', async () => {
    const container = drawn();
    typeIn(container);
    await act(async () => {
      hydrateRoot(container, <Fields />);
    });
    expect(held()).toEqual({ name: 'Drawn', noteCommitted: 'Drawn note', pronouns: 'she', sms: false, citizen: 'us', city: '' });
    expect(container.querySelector('textarea')!.value).toBe('Drawn note');
  });

  it('changes nothing when nothing was typed', async () => {
    const container = drawn();
    const changes: string[] = [];
    container.addEventListener('input', () => changes.push('input'));
    container.addEventListener('change', () => changes.push('change'));
    container.addEventListener('click', () => changes.push('click'));
    await hydrate(container);
    expect(changes).toEqual([]);
    expect(held()).toEqual({ name: 'Drawn', noteCommitted: 'Drawn note', pronouns: 'she', sms: false, citizen: 'us', city: '' });
  });
});
