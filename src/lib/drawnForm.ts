import { releaseHeld, type PrehydrateWindow } from './prehydrate';

/**
 * The form the server drew (src/serverRender.tsx) has run, with its root's first commit: hydrated,
 * or drawn again by the app (src/main.tsx: this browser held answers the server could not see).
 * It may have been typed in before its code came, and the app was not told (React 19 hydration
 * fires no change for it, keeps what an input shows, and puts a text area's drawn text back; a
 * page drawn again has new fields), so each field changed before the start is handed to it, or to
 * the new field of the same question, as the change it was: the event React listens for, then,
 * for a field already left, the blur that commits it. Presses held since the page arrived go on
 * after that.
 */
export function formHydrated(win: Window & PrehydrateWindow = window): void {
  if (!win.portalDrawnForm) return;
  const typed = [...(win.portalTyped ?? [])];
  // Started first: the holding script would hold the clicks that hand a checkbox's change on.
  win.portalDrawnForm = false;
  releaseHeld(win);
  // In the order they were made, each from what was noted: a render of the app before its turn
  // may have put the drawn answer back in the field.
  for (const [drawn, value] of typed) {
    const field = counterpart(drawn, win.document);
    if (!field) continue;
    handOn(field, value);
    if (field !== win.document.activeElement) field.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
  }
}

type FormField = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** The field itself, or when the page was drawn again, the field of the same question (and choice). */
function counterpart(drawn: Element, doc: Document): FormField | null {
  if (drawn.isConnected) return drawn as FormField;
  const { id, name, type, value } = drawn as HTMLInputElement;
  if (id) return doc.getElementById(id) as FormField | null;
  if (!name) return null;
  const choice = type === 'radio' ? `[value="${CSS.escape(value)}"]` : '';
  return doc.querySelector<FormField>(`[name="${CSS.escape(name)}"]${choice}`);
}

function handOn(field: FormField, value: string | boolean): void {
  if (typeof value === 'boolean') {
    const input = field as HTMLInputElement;
    // A radio's change is its choice (a later choice in its group comes later, and wins).
    if (input.type === 'radio' && !value) return;
    // Through the element's own setter, which React watches: it learns the opposite, and the click
    // that makes the choice is a change to it.
    input.checked = !value;
    input.click();
    return;
  }
  if (field.tagName === 'SELECT') {
    field.value = value;
    field.dispatchEvent(new Event('change', { bubbles: true }));
    return;
  }
  const text = field as HTMLInputElement | HTMLTextAreaElement;
  if (text.type === 'file') return;
  // What React last knew (through the watched setter), then the typed text through the
  // prototype's setter, which it does not watch: the input event then reads as a change.
  text.value = text.defaultValue;
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(text) as object, 'value')!.set!.call(text, value);
  text.dispatchEvent(new Event('input', { bubbles: true }));
}
