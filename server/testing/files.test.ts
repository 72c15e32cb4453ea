import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { descendantsOf } from '../infra/browser';
import { makeFixtureFiles } from './files';

function isChromium(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chrom');
  } catch {
    return false;
  }
}

describe('makeFixtureFiles', () => {
  // Playwright's test runner counts every browser context of its process as the test's own: a
  // browser (and a context opened ahead) left by the helper in a beforeAll had the next test's
  // trace started on it twice, failing that test before its first line ("Tracing has been already started").
  it('makes real files of each type and leaves no browser running in the process that asked', async () => {
    const files = await makeFixtureFiles();
    expect(files.png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([...files.jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(files.pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(files.docx.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(descendantsOf(process.pid).filter(isChromium)).toEqual([]);
  });
});
