import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('docs/README.md', () => {
  it('links every decision record, so a newcomer finds each from one page', () => {
    const index = readFileSync('docs/README.md', 'utf8');
    const unlisted = readdirSync('docs/decisions').filter((file) => file.endsWith('.md') && !index.includes(`(decisions/${file})`));
    expect(unlisted).toEqual([]);
  });
});
