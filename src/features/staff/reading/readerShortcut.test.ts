import { describe, expect, it } from 'vitest';
import { readerShortcut } from './ReaderNav';

const input = document.createElement('input');
const textarea = document.createElement('textarea');
const select = document.createElement('select');
const button = document.createElement('button');
const none = { altKey: false, ctrlKey: false, metaKey: false };

describe('readerShortcut', () => {
  it.each([
    ['j', button, none, 'next'],
    ['J', document.body, none, 'next'],
    ['k', button, none, 'previous'],
    ['w', document.body, none, 'write'],
    ['x', document.body, none, null],
    ['j', input, none, null],
    ['k', textarea, none, null],
    ['w', select, none, null],
    ['j', document.body, { ...none, ctrlKey: true }, null],
    ['k', document.body, { ...none, metaKey: true }, null],
    ['w', document.body, { ...none, altKey: true }, null],
  ] as const)('%s on %o with %o → %s', (key, target, modifiers, action) => {
    expect(readerShortcut({ key, target, ...modifiers })).toBe(action);
  });
});
