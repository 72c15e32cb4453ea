import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { EMAIL_PATTERN, formatFileSize, formatPhone, formatSsn, isInternationalPhone, isUsOrInternationalPhone, looksAbroad, PHONE_PATTERN, setPhoneLibrary, showPhone } from './formats';

describe('phones from abroad (issue 28)', () => {
  const plans = { isValid: isValidPhoneNumber, format: (e164: string) => parsePhoneNumberFromString(e164)?.formatInternational() ?? e164 };
  beforeAll(() => setPhoneLibrary(plans));
  afterAll(() => setPhoneLibrary(null));

  it('before the numbering plans are in, checks a number from abroad by its E.164 shape and shows it as stored', () => {
    setPhoneLibrary(null);
    expect(isUsOrInternationalPhone('+919845067890')).toBe(true);
    expect(isUsOrInternationalPhone('+91984')).toBe(false);
    expect(isUsOrInternationalPhone('+919999999999')).toBe(true);
    expect(showPhone('+919845067890')).toBe('+919845067890');
    setPhoneLibrary(plans);
    expect(isUsOrInternationalPhone('+910000000000')).toBe(false);
  });

  it.each([
    ['+91 98450 67890', '+919845067890', '+91 98450 67890'],
    ['+44 20 7946 0958', '+442079460958', '+44 20 7946 0958'],
    ['+33 1 23 45 67 89', '+33123456789', '+33 1 23 45 67 89'],
  ])('%s is kept as the international number it is, stored %s, shown %s', (typed, stored, shown) => {
    expect(formatPhone(typed)).toBe(stored);
    expect(showPhone(formatPhone(typed))).toBe(shown);
    expect(isUsOrInternationalPhone(stored)).toBe(true);
    // Never squeezed into a US number, and refused where only a US number may stand.
    expect(PHONE_PATTERN.test(formatPhone(typed))).toBe(false);
  });

  it('typed key by key, starts with the + and keeps every digit', () => {
    let value = '';
    for (const key of '+91 98450 67890') value = formatPhone(value + key);
    expect(value).toBe('+919845067890');
  });

  it('takes +1 as a US number, and refuses what is no number anywhere', () => {
    expect(formatPhone('+1 303 555 0142')).toBe('(303) 555-0142');
    expect(isUsOrInternationalPhone('(303) 555-0142')).toBe(true);
    expect(isUsOrInternationalPhone('+91 12')).toBe(false);
    expect(isUsOrInternationalPhone('+9112')).toBe(false);
    expect(isUsOrInternationalPhone('(103) 555-0142')).toBe(false);
    expect(formatPhone('+91 ' + '9'.repeat(20))).toBe('+91' + '9'.repeat(13));
  });

  it('shows a US number as stored', () => {
    expect(showPhone('(303) 555-0142')).toBe('(303) 555-0142');
  });

  // Issue 48: '+44 (0)20 7946 0958' was stored +4402079460958, a number that does not dial.
  it.each([
    ['+44 (0)20 7946 0958', '+442079460958'],
    ['+44(0)2079460958', '+442079460958'],
    ['+49 (0) 30 1234567', '+49301234567'],
  ])('drops the trunk (0) written after the country code: %s is stored %s', (typed, stored) => {
    expect(formatPhone(typed)).toBe(stored);
    expect(isUsOrInternationalPhone(stored)).toBe(true);
  });

  it('an international number: + and a country code, valid in its country; words or a number without + are refused', () => {
    expect(isInternationalPhone('+442079460958')).toBe(true);
    expect(isInternationalPhone('+13035550142')).toBe(true);
    expect(isInternationalPhone('call me maybe')).toBe(false);
    expect(isInternationalPhone('919845067890')).toBe(false);
    expect(isInternationalPhone('(303) 555-0142')).toBe(false);
    expect(isInternationalPhone('+910000000000')).toBe(false);
  });
});


describe('phone', () => {
  it.each([
    ['', ''],
    ['3', '(3'],
    ['303', '(303'],
    ['3035', '(303) 5'],
    ['303555', '(303) 555'],
    ['3035550', '(303) 555-0'],
    ['3035550142', '(303) 555-0142'],
    ['+1 (303) 555-0142', '(303) 555-0142'],
    ['1 303 555 0142', '(303) 555-0142'],
    // Issue 48: a leading 1 of ten digits is no country code: every digit shown (and refused: no area code starts with 1).
    ['1234567890', '(123) 456-7890'],
    ['1', '(1'],
  ])('formats %j as %j', (input, expected) => {
    expect(formatPhone(input)).toBe(expected);
  });

  it('typed key by key with a leading 1, into the field of 20 characters, keeps every digit', () => {
    let value = '';
    for (const key of '13035550142') if (value.length < 20) value = formatPhone(value + key);
    expect(value).toBe('(303) 555-0142');
  });

  // Issue 48: '91 98450 67890' became (919) 845-0678, three digits cut without a word.
  it.each([
    ['91 98450 67890', '919845067890'],
    ['303-555-0142 ext 9', '30355501429'],
  ])('never cuts digits: %j has more than a US number, kept whole as %j (and refused with a message)', (typed, kept) => {
    expect(formatPhone(typed)).toBe(kept);
    expect(PHONE_PATTERN.test(kept)).toBe(false);
    expect(looksAbroad(kept)).toBe(true);
  });

  it('tells a number from abroad from a US one being typed', () => {
    expect(looksAbroad('+442079460958')).toBe(true);
    expect(looksAbroad('919845067890')).toBe(true);
    expect(looksAbroad('(303) 555-0142')).toBe(false);
    expect(looksAbroad('(303) 555')).toBe(false);
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
