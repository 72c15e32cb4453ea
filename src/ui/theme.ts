/** Theme colours and shades of spec/platform.md §4. Each `main` shade reads on white at AA (4.5:1). */
export const themeColors = ['primary', 'secondary', 'accent', 'neutral', 'white', 'error', 'disabled'] as const;
export const shades = ['extraLight', 'light', 'main', 'dark'] as const;
export type ThemeColor = (typeof themeColors)[number];
export type Shade = (typeof shades)[number];

export const palette: Record<ThemeColor, Record<Shade, string>> = {
  primary: { extraLight: '#e8eef7', light: '#a9bfdf', main: '#1f4e8c', dark: '#123259' },
  secondary: { extraLight: '#fdf3e1', light: '#f4cf8a', main: '#8a5a00', dark: '#5c3c00' },
  accent: { extraLight: '#e6f4f1', light: '#9fd4c8', main: '#0f6e5c', dark: '#094a3e' },
  neutral: { extraLight: '#f5f6f7', light: '#d9dcdf', main: '#5b6470', dark: '#22272e' },
  white: { extraLight: '#ffffff', light: '#ffffff', main: '#ffffff', dark: '#ffffff' },
  error: { extraLight: '#fdecec', light: '#f3b3b3', main: '#b3261e', dark: '#7a1a14' },
  disabled: { extraLight: '#f1f1f1', light: '#d6d6d6', main: '#6e6e6e', dark: '#4a4a4a' },
};

/** The palette as CSS custom properties: `--color-primary-main`, … */
export function themeCssVariables(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of themeColors) for (const shade of shades) out[`--color-${name}-${shade}`] = palette[name][shade];
  return out;
}

export function applyTheme(root: HTMLElement = document.documentElement): void {
  for (const [property, value] of Object.entries(themeCssVariables())) root.style.setProperty(property, value);
}

/** WCAG 2.x contrast ratio of two #rrggbb colours. */
export function contrastRatio(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) =>
      c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
    ) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
