import { describe, expect, it } from 'vitest';
import { describeStartupError } from './startupError';

const config = { port: 3000, host: 'localhost', dataDir: '/srv/portal/data', databaseUrl: null };
const failure = (code: string, message = 'boom') => Object.assign(new Error(message), { code });

describe('describeStartupError', () => {
  it('says in one line what to do about a port in use, a database out of reach, a data folder that cannot be written', () => {
    const lines = [
      describeStartupError(failure('EADDRINUSE', 'listen EADDRINUSE: address already in use 127.0.0.1:3000'), config),
      describeStartupError(failure('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:5432'), { ...config, databaseUrl: 'postgres://app:secret@10.0.0.5:5432/portal' }),
      describeStartupError(failure('EROFS', 'read-only file system'), config),
      describeStartupError(failure('EACCES', "permission denied, mkdir '/srv/portal/data/pglite'"), config),
    ];
    expect(lines).toEqual([
      'Start-up error: PORT 3000 on localhost is in use by another program; stop it or set PORT.',
      'Start-up error: cannot use the database at 10.0.0.5:5432/portal (ECONNREFUSED: connect ECONNREFUSED 10.0.0.5:5432); check DATABASE_URL and that PostgreSQL is running.',
      'Start-up error: DATA_DIR /srv/portal/data cannot be written (EROFS); choose a folder this user can write to.',
      'Start-up error: DATA_DIR /srv/portal/data cannot be written (EACCES); choose a folder this user can write to.',
    ]);
    for (const line of lines) expect(line).not.toContain('\n');
    expect(lines.join(' ')).not.toContain('secret');
  });

  it('says in one line that HOST is not an address of this machine (issue 29, item 10)', () => {
    expect(describeStartupError(failure('EADDRNOTAVAIL', 'listen EADDRNOTAVAIL: address not available 203.0.113.1:3000'), { ...config, host: '203.0.113.1' })).toBe(
      'Start-up error: HOST 203.0.113.1 is not an address of this machine; set HOST to one of its addresses (0.0.0.0 for every one, 127.0.0.1 for this machine alone).',
    );
  });

  it('finds the code inside the error a query layer wrapped around it', () => {
    const wrapped = Object.assign(new Error('Failed query: CREATE SCHEMA IF NOT EXISTS "drizzle"'), { cause: failure('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5999') });
    expect(describeStartupError(wrapped, { ...config, databaseUrl: 'postgres://x@127.0.0.1:5999/none' })).toBe(
      'Start-up error: cannot use the database at 127.0.0.1:5999/none (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:5999); check DATABASE_URL and that PostgreSQL is running.',
    );
  });

  it('says in one line that another running process (a second server) holds the embedded database', () => {
    const held = failure('DATA_DIR_IN_USE', 'DATA_DIR /srv/portal/data holds the embedded database of a running process (pid 41, likely the server): stop it first.');
    expect(describeStartupError(held, config)).toBe('Start-up error: DATA_DIR /srv/portal/data holds the embedded database of a running process (pid 41, likely the server): stop it first.');
  });

  it('leaves any other failure to be shown in full', () => {
    expect(describeStartupError(new Error('something else'), config)).toBeNull();
  });
});
