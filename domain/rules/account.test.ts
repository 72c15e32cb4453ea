import { describe, expect, it } from 'vitest';
import { accountMessages as messages } from '../messages';
import { normalizeUsername, requirementStates, validateAccountForm } from './account';

const good = 'Correct-Horse-42';

describe('spec texts (spec/platform.md §5)', () => {
  it('are exactly the spec strings', () => {
    expect(messages.emailInvalid).toBe('Your email address must be valid.');
    expect(messages.loginEmailInvalid).toBe('Please provide a valid email address.');
    expect(messages.passwordRequired).toBe('Password is required.');
    expect(messages.codeInvalid).toBe('The confirmation code must be exactly 6 numbers.');
    expect(messages.resendEmailInvalid).toBe('You must provide a valid email address to resend a confirmation code.');
  });
});

describe('login', () => {
  it('checks username and password at submit', () => {
    expect(validateAccountForm('login', { username: 'nope', password: '' })).toEqual({
      username: ['Please provide a valid email address.'],
      password: ['Password is required.'],
    });
    expect(validateAccountForm('login', { username: 'a@b.co', password: 'x' })).toEqual({});
  });

  it.each(['', 'a', 'a@', '@b.co', 'a@b', 'a b@c.de'])('refuses %j as an address', (username) => {
    expect(validateAccountForm('login', { username, password: 'x' }).username).toEqual(['Please provide a valid email address.']);
  });
});

describe('sign-up', () => {
  it('uses the sign-up e-mail text', () => {
    expect(validateAccountForm('signup', { username: 'x', password: good }).username).toEqual(['Your email address must be valid.']);
  });

  it.each([
    ['Short-1a', [messages.passwordTooShort]],
    ['all-lowercase-123', [messages.passwordNeedsUppercase]],
    ['ALL-UPPERCASE-123', [messages.passwordNeedsLowercase]],
    ['No-Numbers-Here!', [messages.passwordNeedsNumber]],
    ['NoSpecialChars123', [messages.passwordNeedsSpecial]],
    [' Leading-Space-42', [messages.passwordWhitespace]],
    ['Trailing-Space-42 ', [messages.passwordWhitespace]],
    ['abc', [messages.passwordTooShort, messages.passwordNeedsUppercase, messages.passwordNeedsNumber, messages.passwordNeedsSpecial]],
  ])('password %j gets every failing rule', (password, expected) => {
    expect(validateAccountForm('signup', { username: 'a@b.co', password }).password).toEqual(expected);
  });

  it('accepts a password meeting every rule', () => {
    expect(validateAccountForm('signup', { username: 'a@b.co', password: good })).toEqual({});
  });
});

describe('the requirement list', () => {
  it('is inactive while empty, then error or success per rule', () => {
    expect(Object.values(requirementStates(''))).toEqual(Array(6).fill('inactive'));
    expect(requirementStates('abc')).toEqual({
      length: 'error', uppercase: 'error', lowercase: 'success', number: 'error', special: 'error', whitespace: 'success',
    });
    expect(Object.values(requirementStates(good))).toEqual(Array(6).fill('success'));
  });
});

describe('confirm', () => {
  it.each(['', '12345', '1234567', '12a456', '12 456'])('refuses the code %j', (code) => {
    expect(validateAccountForm('confirm', { username: 'a@b.co', code })).toEqual({ code: ['The confirmation code must be exactly 6 numbers.'] });
  });
  it('accepts six digits, also pasted with spaces around', () => {
    expect(validateAccountForm('confirm', { username: 'a@b.co', code: ' 048213 ' })).toEqual({});
  });
});

describe('forgot, resend and reset', () => {
  it('forgot checks the username', () => {
    expect(validateAccountForm('forgot', { username: '' })).toEqual({ username: ['Your email address must be valid.'] });
  });
  it('resend from login has its own text', () => {
    expect(validateAccountForm('resend', { username: 'x' })).toEqual({
      username: ['You must provide a valid email address to resend a confirmation code.'],
    });
  });
  it('reset checks password, confirm_password and id', () => {
    expect(validateAccountForm('reset', { username: 'a@b.co', password: good, confirm_password: 'other', id: '' })).toEqual({
      confirm_password: ['The passwords do not match.'],
      id: [messages.resetIdMissing],
    });
    expect(validateAccountForm('reset', { username: 'a@b.co', password: good, confirm_password: good, id: 'abc' })).toEqual({});
  });
});

it('normalizes usernames to trimmed lower case', () => {
  expect(normalizeUsername('  Applicant@Example.COM ')).toBe('applicant@example.com');
});
