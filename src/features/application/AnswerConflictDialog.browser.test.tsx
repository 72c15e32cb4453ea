import { describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { page, userEvent } from 'vitest/browser';
import { tap } from '../../test/hands';
import { axeViolations } from '../../test/axe';
import { AnswerConflictDialog, questionName } from './AnswerConflictDialog';
import { readConflict } from './answerConflicts';

// What a save's 409 said: the name and the country were changed on another device first.
const { conflicts } = readConflict(
  { conflicts: ['first_name', 'country'], current: { first_name: 'Jordan', country: 'CAN', country_desc: 'Canada' } },
  { first_name: 'Jo', country: 'USA', country_desc: 'United States' },
);

describe('the answers-changed dialog (issue 28)', () => {
  it.each([
    [1280, 800],
    [390, 844],
  ])('asks per answer, mine or the newer one, with the spec-style text, and passes axe at %ipx', async (width, height) => {
    await page.viewport(width, height);
    const onResolve = vi.fn();
    const screen = await render(<AnswerConflictDialog conflicts={conflicts} onResolve={onResolve} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Answers changed elsewhere' });
    await expect.element(dialog).toBeVisible();
    await expect.element(screen.getByText('Some answers were changed in another tab or on another device. Choose which to keep.')).toBeVisible();
    const name = screen.getByRole('group', { name: 'Personal Information: Legal First Name' });
    await expect.element(name.getByRole('radio', { name: 'Keep mine: Jo' })).toBeChecked();
    await expect.element(name.getByRole('radio', { name: 'Use the newer one: Jordan' })).not.toBeChecked();
    const country = screen.getByRole('group', { name: questionName('country') });
    await country.getByRole('radio', { name: 'Use the newer one: Canada' }).click();
    expect(await axeViolations()).toEqual([]);
    expect(dialog.element().getBoundingClientRect().right).toBeLessThanOrEqual(width);
    await screen.getByRole('button', { name: 'Save these answers' }).click();
    expect(onResolve).toHaveBeenCalledWith({ first_name: 'mine', country: 'theirs' });
  });

  // Issue 48: closing with × or Escape kept "mine" for every answer and overwrote the newer ones.
  it.each([
    ['the × pressed with a pointer', () => page.getByRole('button', { name: 'Close' }).click()],
    ['the × tapped', () => tap(page.getByRole('button', { name: 'Close' }))],
    ['Escape', () => userEvent.keyboard('{Escape}')],
    ['Not now', () => page.getByRole('button', { name: 'Not now' }).click()],
  ])('closed by %s: asks again later and chooses nothing', async (_, close) => {
    const onResolve = vi.fn();
    const onClose = vi.fn();
    const screen = await render(<AnswerConflictDialog conflicts={conflicts} onResolve={onResolve} onClose={onClose} />);
    await expect.element(screen.getByRole('dialog', { name: 'Answers changed elsewhere' })).toBeVisible();
    await close();
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onResolve).not.toHaveBeenCalled();
  });
});
