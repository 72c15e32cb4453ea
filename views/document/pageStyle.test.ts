import { describe, expect, it } from 'vitest';
import { cssString, PAGE, pageStyle, SHEET } from './pageStyle';

describe('cssString', () => {
  it.each([
    ['Jordan Rivera', '"Jordan Rivera"'],
    ['Rivera · 100042', '"Rivera \\b7  100042"'],
    ['a"b\\c', '"a\\22 b\\5c c"'],
    ['</style>', '"\\3c \\2f style\\3e "'],
    ['佐藤 😀', '"\\4f50 \\85e4  \\1f600 "'],
    ['line\nbreak', '"line\\a break"'],
  ])('%j → %s', (text, css) => expect(cssString(text)).toBe(css));
});

describe('pageStyle', () => {
  it('is one @page rule: Letter, the margins, the header top left and "Page N of M" bottom right', () => {
    const css = pageStyle('Jordan');
    expect(css).toMatch(/^@page \{ size: letter; margin: 0\.75in 0\.6in 0\.65in;/);
    expect(css).toContain('@top-left { content: "Jordan";');
    expect(css).toContain('@bottom-right { content: "Page " counter(page) " of " counter(pages);');
    expect(css.match(/\{/g)).toHaveLength(css.match(/\}/g)!.length);
  });

  it('leaves an attached sheet inside one page', () => {
    expect(SHEET.heightIn).toBeLessThan(PAGE.heightIn - PAGE.topIn - PAGE.bottomIn);
    expect(SHEET.captionIn).toBeLessThan(SHEET.heightIn / 10);
  });
});
