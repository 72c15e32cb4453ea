import { afterEach, expect } from 'vitest';

// React says so when an element is where HTML does not allow it (a <dialog> inside a <p>, a <div>
// inside a <button>): the browser moves or drops it, and what a screen reader gets is not what was
// drawn. Such a warning fails the test that drew it (the component tests' setups import this).
const misplaced: string[] = [];
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  // React's message is a format string ("In HTML, %s cannot be a descendant of <%s>.") and its values.
  const values = args.slice(1);
  const text = String(args[0]).replace(/%s/g, () => String(values.shift() ?? ''));
  if (/cannot be a (descendant|child) of|cannot contain a nested/.test(text)) misplaced.push(text.split('\n')[0]!.slice(0, 300));
  consoleError(...args);
};

afterEach(() => {
  expect(misplaced.splice(0), 'elements where HTML does not allow them').toEqual([]);
});
