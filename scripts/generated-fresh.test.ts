import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('generated/', () => {
  it('is what `npm run gen` makes from openapi.yaml (run it and commit the result when this fails)', () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'portal-gen-')), 'api.d.ts');
    execFileSync('node_modules/.bin/openapi-typescript', ['openapi.yaml', '-o', out], { stdio: 'pipe' });
    expect(readFileSync('generated/api.d.ts', 'utf8')).toBe(readFileSync(out, 'utf8'));
  });
});
