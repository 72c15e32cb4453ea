import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { axeViolations } from './axe';

// The axe checks elsewhere only mean something if this helper does report problems.
describe('axeViolations', () => {
  it('reports an unlabelled input and low-contrast text', async () => {
    await render(
      <main>
        <h1>Broken</h1>
        <input type="text" />
        <p style={{ color: '#bbbbbb', background: '#ffffff' }}>Faint text</p>
      </main>,
    );
    const violations = await axeViolations();
    expect(violations.some((v) => v.startsWith('label'))).toBe(true);
    expect(violations.some((v) => v.startsWith('color-contrast'))).toBe(true);
  });
});
