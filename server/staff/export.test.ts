import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { neutralised, spreadsheetCsv } from '../office/spreadsheet';

describe('a CSV cell a spreadsheet would run', () => {
  it.each([
    ['=SUM(A1)', "'=SUM(A1)"],
    ['+1 555 0100', "'+1 555 0100"],
    ['-2', "'-2"],
    ['@cmd', "'@cmd"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    ['\t', "'\t"],
    // What a spreadsheet skips before the first character (issue 29, item 9).
    [' =1+1', "' =1+1"],
    ['   @cmd', "'   @cmd"],
    ['\u00a0=1+1', "'\u00a0=1+1"],
    ['\u200b=1+1', "'\u200b=1+1"],
    ['\ufeff=1+1', "'\ufeff=1+1"],
    ['\n=1+1', "'\n=1+1"],
    ['\u3000+1', "'\u3000+1"],
    [' \u200b\u00a0-1', "' \u200b\u00a0-1"],
    // Fullwidth openers, which Excel reads as their ASCII forms.
    ['\uff1dSUM(A1)', "'\uff1dSUM(A1)"],
    ['\uff0b1', "'\uff0b1"],
    ['\uff0d1', "'\uff0d1"],
    ['\uff20cmd', "'\uff20cmd"],
    // Left alone: nothing opens a formula.
    ['Rivera', 'Rivera'],
    ['a=b', 'a=b'],
    [' Rivera', ' Rivera'],
    ["O'Neil", "O'Neil"],
    ['', ''],
  ])('%j → %j', (value, written) => {
    expect(neutralised(value)).toBe(written);
  });
});

describe('the spreadsheet CSV', () => {
  it('quotes a value holding ; or a tab, so a spreadsheet splitting on either keeps one cell', async () => {
    const csv = spreadsheetCsv(['a', 'b']);
    Readable.from([{ a: 'x;=1+1', b: 'y\t@cmd' }, { a: 'plain', b: '=1' }]).pipe(csv);
    const lines = (await text(csv)).replace(/^\ufeff/, '').split('\n');
    expect(lines.slice(0, 3)).toEqual(['a,b', '"x;=1+1","y\t@cmd"', "plain,'=1"]);
  });
});
