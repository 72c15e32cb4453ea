import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN, formatFileSize, formatPhone, formatSsn, PHONE_PATTERN } from './formats';

describe('phone', () => {
  it.each([
    ['', ''],
    ['3', '(3'],
    ['303', '(303'],
    ['3035', '(303) 5'],
    ['303555', '(303) 555'],
    ['3035550', '(303) 555-0'],
    ['3035550142', '(303) 555-0142'],
    ['303-555-0142 ext 9', '(303) 555-0142'],
    ['+1 (303) 555-0142', '(303) 555-0142'],
  ])('formats %j as %j', (input, expected) => {
    expect(formatPhone(input)).toBe(expected);
  });

  it('typed key by key with a leading 1, into a field of 14 characters, keeps every digit', () => {
    let value = '';
    for (const key of '13035550142') if (value.length < 14) value = formatPhone(value + key);
    expect(value).toBe('(303) 555-0142');
    expect(formatPhone('1')).toBe('');
  });

  it.each([
    ['(303) 555-0142', true],
    ['(203) 555-0142', true],
    ['(103) 555-0142', false], // the area code starts with 2 to 9
    ['(003) 555-0142', false],
    ['303-555-0142', false],
    ['(303) 555-014', false],
  ])('%j matches the phone pattern: %s', (value, ok) => {
    expect(PHONE_PATTERN.test(value)).toBe(ok);
  });
});

describe('3-2-4 format', () => {
  it.each([
    ['', ''],
    ['123', '123'],
    ['1234', '123-4'],
    ['12345', '123-45'],
    ['123456', '123-45-6'],
    ['123456789', '123-45-6789'],
    ['123-45-67890', '123-45-6789'],
  ])('formats %j as %j', (input, expected) => {
    expect(formatSsn(input)).toBe(expected);
  });
});

describe('e-mail pattern', () => {
  it.each([
    ['counselor@school.org', true],
    ['a.b+c@sub.example.edu', true],
    ['counselor@school', false],
    ['counselor school@x.org', false],
    ['@school.org', false],
  ])('%j: %s', (value, ok) => {
    expect(EMAIL_PATTERN.test(value)).toBe(ok);
  });
});

describe('file sizes', () => {
  it.each([
    [1, '1 byte'],
    [619, '619 bytes'],
    [48213, '48 kB'],
    [999_400, '999 kB'],
    [999_600, '1 MB'],
    [1_000_000, '1 MB'],
  ])('%i bytes → %j', (bytes, expected) => {
    expect(formatFileSize(bytes)).toBe(expected);
  });
});
