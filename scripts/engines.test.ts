import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * Every package installed runs on the oldest Node the project says it runs on (`engines` in
 * package.json): `npm ci` on these machines (Node 20) printed EBADENGINE for two that wanted Node 22,
 * a warning a newcomer reads as a fault. package.json's `overrides` hold the versions that fit.
 */
const project = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };

describe('the installed packages and the Node the project runs on', () => {
  const oldest = semver.minVersion(project.engines.node)!.version;

  it(`each package in package-lock.json runs on Node ${oldest}, the oldest package.json allows`, () => {
    const refusing = Object.entries(lock.packages)
      .filter(([where, entry]) => where !== '' && !Array.isArray(entry.engines) && entry.engines?.node && !semver.satisfies(oldest, entry.engines.node))
      .map(([where, entry]) => `${where} wants node ${(entry.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
