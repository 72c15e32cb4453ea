import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { axeViolations } from '../test/axe';
import { useState } from 'react';
import { SUCCESS_TOAST_LABEL, ToastProvider, toastDuration, useScreenToasts, useToast, type ToastInput } from './Toast';

function Trigger({ toast }: { toast: ToastInput }) {
  const { showToast } = useToast();
  return (
    <button type="button" onClick={() => showToast(toast)}>
      Show
    </button>
  );
}

const success: ToastInput = { severity: 'success', label: SUCCESS_TOAST_LABEL, message: 'Your account is confirmed.' };
const error: ToastInput = { severity: 'error', label: 'Login Card Error', message: 'Incorrect username or password.' };

describe('Toast', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => vi.useRealTimers());

  it('closes after 5 s (success) and 300000 ms (error), per the spec', () => {
    expect(SUCCESS_TOAST_LABEL).toBe('Success Notification');
    expect(toastDuration).toEqual({ success: 5000, error: 300000 });
  });

  it('shows a success toast with its label and closes it after 5 s', async () => {
    const screen = await render(
      <ToastProvider>
        <Trigger toast={success} />
      </ToastProvider>,
    );
    await screen.getByRole('button', { name: 'Show' }).click();
    await expect.element(screen.getByText('Success Notification')).toBeVisible();
    await expect.element(screen.getByText('Your account is confirmed.')).toBeVisible();
    await vi.advanceTimersByTimeAsync(4_900);
    await expect.element(screen.getByText('Your account is confirmed.')).toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(200);
    await expect.element(screen.getByText('Your account is confirmed.')).not.toBeInTheDocument();
  });

  it("times each toast from its own appearance: another toast coming or going does not restart it", async () => {
    const screen = await render(
      <ToastProvider>
        <Trigger toast={success} />
        <Trigger toast={error} />
      </ToastProvider>,
    );
    await screen.getByRole('button', { name: 'Show' }).first().click();
    await vi.advanceTimersByTimeAsync(3_000);
    await screen.getByRole('button', { name: 'Show' }).last().click();
    await screen.getByRole('button', { name: 'Close Login Card Error' }).click();
    await vi.advanceTimersByTimeAsync(2_100);
    await expect.element(screen.getByText('Your account is confirmed.')).not.toBeInTheDocument();
  });

  it("a screen's own toasts close when the screen goes", async () => {
    function Screen() {
      const show = useScreenToasts();
      return (
        <button type="button" onClick={() => show(error)}>
          Fail
        </button>
      );
    }
    function Switcher() {
      const [on, setOn] = useState(true);
      return (
        <>
          {on && <Screen />}
          <button type="button" onClick={() => setOn(false)}>
            Leave
          </button>
        </>
      );
    }
    const screen = await render(
      <ToastProvider>
        <Switcher />
      </ToastProvider>,
    );
    await screen.getByRole('button', { name: 'Fail' }).click();
    await expect.element(screen.getByText('Login Card Error')).toBeVisible();
    await screen.getByRole('button', { name: 'Leave' }).click();
    await expect.element(screen.getByText('Login Card Error')).not.toBeInTheDocument();
  });

  it('keeps an error toast for 300000 ms', async () => {
    const screen = await render(
      <ToastProvider>
        <Trigger toast={error} />
      </ToastProvider>,
    );
    await screen.getByRole('button', { name: 'Show' }).click();
    await vi.advanceTimersByTimeAsync(299_000);
    await expect.element(screen.getByText('Login Card Error')).toBeVisible();
    await vi.advanceTimersByTimeAsync(1_100);
    await expect.element(screen.getByText('Login Card Error')).not.toBeInTheDocument();
  });

  it('is announced politely through a live region that is there before the toast', async () => {
    const screen = await render(
      <ToastProvider>
        <Trigger toast={error} />
      </ToastProvider>,
    );
    const region = document.querySelector('.toasts');
    expect(region?.getAttribute('aria-live')).toBe('polite');
    await screen.getByRole('button', { name: 'Show' }).click();
    expect(region?.textContent).toContain('Incorrect username or password.');
  });

  it('can be closed by its button', async () => {
    const screen = await render(
      <ToastProvider>
        <Trigger toast={error} />
      </ToastProvider>,
    );
    await screen.getByRole('button', { name: 'Show' }).click();
    await screen.getByRole('button', { name: 'Close Login Card Error' }).click();
    await expect.element(screen.getByText('Login Card Error')).not.toBeInTheDocument();
  });

  it('has no axe violations with both kinds shown', async () => {
    vi.useRealTimers(); // axe schedules its own timers
    const screen = await render(
      <ToastProvider>
        <main>
          <h1>Toasts</h1>
          <Trigger toast={success} />
          <Trigger toast={error} />
        </main>
      </ToastProvider>,
    );
    await screen.getByRole('button', { name: 'Show' }).first().click();
    await screen.getByRole('button', { name: 'Show' }).last().click();
    await expect.element(screen.getByText('Login Card Error')).toBeVisible();
    expect(await axeViolations()).toEqual([]);
  });

  it('shows one success at a time, the newest, while errors stay (issue 28)', async () => {
    function Many() {
      const { showToast } = useToast();
      return (
        <button
          type="button"
          onClick={() => {
            for (const message of ['Account created.', 'Code sent.', 'Signed in.']) showToast({ ...success, message });
            showToast(error);
          }}
        >
          Many
        </button>
      );
    }
    const screen = await render(
      <ToastProvider>
        <Many />
      </ToastProvider>,
    );
    await screen.getByRole('button', { name: 'Many' }).click();
    await expect.element(screen.getByText('Signed in.')).toBeVisible();
    expect(document.querySelectorAll('.toast')).toHaveLength(2);
    expect(screen.getByText('Account created.').query()).toBeNull();
  });

  it('never covers the field in use: the toasts move to the top when it is where they would be (issue 28)', async () => {
    vi.useRealTimers(); // nothing here waits on a toast's timer; the page's own waits need real ones
    function Page() {
      const { showToast } = useToast();
      return (
        <main style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', justifyContent: 'space-between' }}>
          <button type="button" onClick={() => showToast(error)}>
            Fail
          </button>
          <label>
            Last field <input style={{ marginBottom: 0 }} />
          </label>
        </main>
      );
    }
    const screen = await render(
      <ToastProvider>
        <Page />
      </ToastProvider>,
    );
    await screen.getByRole('button', { name: 'Fail' }).click();
    const input = screen.getByLabelText('Last field');
    // Reached by Tab (or scrolled to): under the toasts until they move.
    (input.element() as HTMLInputElement).focus();
    await expect.poll(() => document.querySelector('.toasts')!.classList.contains('toasts--top')).toBe(true);
    const toasts = document.querySelector('.toasts')!.getBoundingClientRect();
    const field = input.element().getBoundingClientRect();
    expect(toasts.bottom <= field.top || toasts.top >= field.bottom).toBe(true);
    expect(await axeViolations()).toEqual([]);
  });

  it.each([
    [1280, 800, 'top'],
    [390, 844, 'bottom'],
  ])('at %ipx a success toast sits at the %s, an error at the bottom (issue 48)', async (width, height, where) => {
    vi.useRealTimers();
    const { page } = await import('vitest/browser');
    await page.viewport(width, height);
    function Page() {
      const { showToast } = useToast();
      return (
        <main>
          <button type="button" onClick={() => showToast({ severity: 'success', label: 'Success Notification', message: 'Your application was successfully submitted.' })}>
            Submit
          </button>
          <button type="button" onClick={() => showToast(error)}>
            Fail
          </button>
        </main>
      );
    }
    const screen = await render(
      <ToastProvider>
        <Page />
      </ToastProvider>,
    );
    await screen.getByRole('button', { name: 'Submit' }).click();
    await expect.element(screen.getByText('Your application was successfully submitted.')).toBeVisible();
    const success = document.querySelector('.toast')!.getBoundingClientRect();
    if (where === 'top') {
      expect(success.top).toBeLessThan(40);
      expect(Math.abs(success.left + success.width / 2 - width / 2)).toBeLessThan(2);
    } else expect(success.bottom).toBeGreaterThan(height - 40);
    await screen.getByRole('button', { name: 'Fail' }).click();
    await expect.poll(() => document.querySelector('.toast--error')!.getBoundingClientRect().bottom).toBeGreaterThan(height - 40);
  });
});
