import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { userEvent } from 'vitest/browser';
import { axeViolations } from '../test/axe';
import { Button } from './Button';
import { Modal, UnexpectedErrorModal, type ModalSize } from './Modal';

function Harness({ header, size }: { header?: string; size?: ModalSize }) {
  const [open, setOpen] = useState(false);
  return (
    <main>
      <h1>Page</h1>
      <Button onClick={() => setOpen(true)}>Open</Button>
      <a href="#behind">A link behind</a>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        header={header}
        size={size}
        footer={<Button onClick={() => setOpen(false)}>Done</Button>}
      >
        <p>Body text</p>
      </Modal>
    </main>
  );
}

describe('Modal', () => {
  it("has the header 'Error' by default and is labelled by it", async () => {
    const screen = await render(<Harness />);
    await screen.getByRole('button', { name: 'Open' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Error' });
    await expect.element(dialog).toBeVisible();
    await expect.element(screen.getByRole('heading', { name: 'Error' })).toBeVisible();
  });

  it.each([
    ['xs', 320],
    ['s', 480],
    ['m', 720],
  ] as const)('size %s is at most %ipx wide', async (size, px) => {
    const screen = await render(<Harness header="Sized" size={size} />);
    await screen.getByRole('button', { name: 'Open' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Sized' }).element();
    expect(dialog.classList.contains(`modal--${size}`)).toBe(true);
    expect(dialog.getBoundingClientRect().width).toBeLessThanOrEqual(px);
  });

  it('moves focus in, keeps it in while open, and returns it on close', async () => {
    const screen = await render(<Harness header="Focus" />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await opener.click();
    const dialog = screen.getByRole('dialog', { name: 'Focus' }).element();
    expect(dialog.contains(document.activeElement)).toBe(true);
    // Tab through more elements than the dialog has: focus never reaches the page behind.
    for (let i = 0; i < 5; i++) {
      await userEvent.keyboard('{Tab}');
      expect(document.activeElement === document.body || dialog.contains(document.activeElement)).toBe(true);
    }
    await screen.getByRole('button', { name: 'Done' }).click();
    await expect.element(screen.getByRole('dialog')).not.toBeInTheDocument();
    expect(document.activeElement).toBe(opener.element());
  });

  it('closes on Escape through onClose', async () => {
    const onClose = vi.fn();
    await render(
      <Modal open onClose={onClose} header="Esc">
        <p>x</p>
      </Modal>,
    );
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes with its Close button', async () => {
    const screen = await render(<Harness header="Closable" />);
    await screen.getByRole('button', { name: 'Open' }).click();
    await screen.getByRole('button', { name: 'Close' }).click();
    await expect.element(screen.getByRole('dialog')).not.toBeInTheDocument();
  });

  it("the unexpected-error modal is titled 'Unexpected Error'", async () => {
    const screen = await render(<UnexpectedErrorModal open onClose={() => {}} message="Something broke." />);
    await expect.element(screen.getByRole('dialog', { name: 'Unexpected Error' })).toBeVisible();
    await expect.element(screen.getByText('Something broke.')).toBeVisible();
  });

  it('has no axe violations while open', async () => {
    const screen = await render(<Harness header="Accessible" />);
    await screen.getByRole('button', { name: 'Open' }).click();
    expect(await axeViolations()).toEqual([]);
  });
});
