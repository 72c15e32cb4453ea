import { describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { axeViolations } from '../test/axe';
import { Button } from './Button';
import { Loading } from './Loading';

describe('Button', () => {
  it('calls onClick when not loading', async () => {
    const onClick = vi.fn();
    const screen = await render(<Button onClick={onClick}>Save</Button>);
    await screen.getByRole('button', { name: 'Save' }).click();
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('while loading shows a spinner, is busy, keeps focus and ignores clicks', async () => {
    const onClick = vi.fn();
    const screen = await render(
      <Button loading onClick={onClick}>
        Log Out
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Log Out (loading)' });
    await expect.element(button).toHaveAttribute('aria-busy', 'true');
    await expect.element(button).toHaveAttribute('aria-disabled', 'true');
    expect(button.element().querySelector('.spinner')).not.toBeNull();
    await button.click({ force: true });
    expect(onClick).not.toHaveBeenCalled();
  });

  it.each(['primary', 'secondary', 'text'] as const)('the %s variant has no axe violations, also loading', async (variant) => {
    await render(
      <main>
        <h1>Buttons</h1>
        <Button variant={variant}>Continue</Button>
        <Button variant={variant} loading>
          Submit
        </Button>
      </main>,
    );
    expect(await axeViolations()).toEqual([]);
  });
});

describe('Loading', () => {
  it.each(['spinner', 'circles'] as const)('%s is a status announced with its label', async (type) => {
    const screen = await render(<Loading type={type} label="Loading your application" />);
    await expect.element(screen.getByRole('status')).toHaveTextContent('Loading your application');
    expect(document.querySelector(type === 'spinner' ? '.spinner' : '.circles')).not.toBeNull();
  });

  it('full screen covers the viewport', async () => {
    const screen = await render(<Loading fullScreen />);
    const box = screen.getByRole('status').element().getBoundingClientRect();
    expect(box.width).toBe(window.innerWidth);
    expect(box.height).toBe(window.innerHeight);
  });

  it('has no axe violations', async () => {
    await render(
      <main>
        <h1>Loading</h1>
        <Loading type="spinner" />
        <Loading type="circles" />
      </main>,
    );
    expect(await axeViolations()).toEqual([]);
  });
});
