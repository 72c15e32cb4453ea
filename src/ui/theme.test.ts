// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it } from 'vitest';
import { contrastRatio, palette, shades, themeColors, themeCssVariables } from './theme';

describe('theme', () => {
  it('has the colours and shades of spec/platform.md §4', () => {
    expect(themeColors).toEqual(['primary', 'secondary', 'accent', 'neutral', 'white', 'error', 'disabled']);
    expect(shades).toEqual(['extraLight', 'light', 'main', 'dark']);
    for (const name of themeColors) for (const shade of shades) expect(palette[name][shade]).toMatch(/^#[0-9a-f]{6}$/);
    expect(Object.keys(themeCssVariables())).toHaveLength(28);
  });

  it.each(themeColors.filter((c) => c !== 'white'))('%s main and dark read on white at WCAG AA', (name) => {
    expect(contrastRatio(palette[name].main, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(palette[name].dark, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('computes the contrast of black on white as 21', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
  });
});
