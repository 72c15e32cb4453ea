import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ToastProvider } from '../../ui/Toast';
import { useAuthForm } from './useAuthForm';

/** A card's two fields and what the form holds, as the sign-in screen has them. */
function Card() {
  const form = useAuthForm({ form: 'login', initial: { username: '', password: '' }, cardName: 'Login Card', submit: async () => {} });
  return (
    <form>
      <input id="username" value={form.values.username} onChange={(event) => form.setValue('username', event.target.value)} />
      <input id="password" type="password" value={form.values.password} onChange={(event) => form.setValue('password', event.target.value)} />
      <output>{`${form.values.username}|${form.values.password}`}</output>
    </form>
  );
}

const tree = (
  <ToastProvider>
    <Card />
  </ToastProvider>
);

describe('a card drawn ahead (src/prerender.tsx) and then hydrated', () => {
  it('takes in what was typed into its fields before the app ran', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(tree);
    document.body.append(container);
    // Typed, or filled in by the browser, while the app's code was still on its way.
    container.querySelector<HTMLInputElement>('#username')!.value = 'early@example.com';
    container.querySelector<HTMLInputElement>('#password')!.value = 'Typed-Before-1';
    const typedInto = container.querySelector('#username');

    await act(async () => {
      hydrateRoot(container, tree);
    });
    expect(container.querySelector('output')!.textContent).toBe('early@example.com|Typed-Before-1');
    // Hydrated, not drawn again: the same field, still showing what was typed.
    expect(container.querySelector('#username')).toBe(typedInto);
    expect(container.querySelector<HTMLInputElement>('#username')!.value).toBe('early@example.com');
    container.remove();
  });
});
