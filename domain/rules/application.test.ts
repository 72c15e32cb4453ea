import { isValidPhoneNumber } from 'libphonenumber-js/min';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPhoneLibrary } from './formats';
import { catalogue } from '../catalogue';
import { phone } from '../catalogue/build';
import { completeApplication } from '../catalogue/completeApplication';
import { validateApplication, type Answers } from './application';

const now = new Date('2026-11-22T12:00:00Z');

const errorsWith = (change: Answers) => validateApplication({ ...completeApplication, ...change }, { now });

describe('a complete application', () => {
  it('has no errors', () => {
    expect(validateApplication(completeApplication, { now })).toEqual({});
  });

  it('an empty application gets every required message', () => {
    const errors = validateApplication({}, { now });
    expect(errors).toMatchObject({
      first_name: ['Legal First Name'],
      last_name: ['Legal Last Name'],
      birth_date: ['Birth Date'],
      phone_home: ['Please enter either a home phone or cell phone number.'],
      address_line_1: ['Street Address'],
      city: ['City'],
      country: ['Country'],
      citizenship_type: ['Citizenship Status'],
      legacy_ind: ['Have any of your relatives attended Northfield University?'],
      parent_marital_status: ["Parents' Marital Status"],
      entry_term: ['Entry Term'],
      applied_major: ['Intended Major'],
      career_goal: ['Career Goal'],
      first_hear_regis: ['How did you first hear about Northfield University?'],
      co_grad: ['Will you graduate from a Colorado high school?'],
      hs_name: ['Search for Your School'],
      hs_attend_from_month: ['Attended From: Month'],
      grad_month: ['Graduation Month'],
      conviction: ['Have you ever been convicted of a misdemeanor, felony or other crime?'],
      suspended: ['Have you ever been suspended or expelled from a school?'],
      legal_agree: ['I agree to the above statements.'],
      counselor_waiver_request: ['Do you waive your right to see the recommendations written for you?'],
      signature: ['Full Legal Name'],
    });
  });
});

describe('person (spec/form.md §5)', () => {
  it.each([
    [{ phone_home: '303-555-0142' }, 'phone_home', 'Please enter a valid home phone number.'],
    [{ phone_home: '(103) 555-0142' }, 'phone_home', 'Please enter a valid home phone number.'],
    [{ phone_mobile: '(303) 555-014' }, 'phone_mobile', 'Please enter a valid cell phone number.'],
    [{ phone_mobile: '', phone_home: '(303) 555-0100', optin_sms_ind: true }, 'phone_mobile', 'A cell phone number is required to receive text message updates.'],
    [{ phone_mobile: '', phone_home: '' }, 'phone_home', 'Please enter either a home phone or cell phone number.'],
    [{ birth_date: '' }, 'birth_date', 'Birth Date'],
    [{ birth_date: '1925-12-31' }, 'birth_date', 'This date is not supported. Please contact help support for assistance.'],
    [{ birth_date: '2026-02-30' }, 'birth_date', 'This date is not supported. Please contact help support for assistance.'],
    [{ birth_date: '2014-01-01' }, 'birth_date', 'You must be 13 years or older to apply.'],
  ] as const)('%j → %s: %s', (change, key, message) => {
    expect(errorsWith(change)[key]).toEqual([message]);
  });

  it('takes the year windows from the current year (100 and 13 years)', () => {
    expect(errorsWith({ birth_date: '1926-01-01' }).birth_date).toBeUndefined();
    expect(errorsWith({ birth_date: '2013-12-31' }).birth_date).toBeUndefined();
    expect(validateApplication({ ...completeApplication, birth_date: '2013-12-31' }, { now: new Date('2025-06-01') }).birth_date).toEqual([
      'You must be 13 years or older to apply.',
    ]);
  });

  it('an international phone makes the home phone optional', () => {
    expect(errorsWith({ phone_mobile: '', phone_home: '', phone_international: '+442079460958' }).phone_home).toBeUndefined();
  });

  // Issue 48: 'call me maybe' was taken as an international phone; a number from abroad in Home
  // Phone said only that it was not valid; a number without '+' lost digits.
  it.each([
    ['phone_international', 'call me maybe', 'Please enter your international phone number with + and its country code, for example +44 20 7946 0958.'],
    ['phone_international', '919845067890', 'Please enter your international phone number with + and its country code, for example +44 20 7946 0958.'],
    ['phone_home', '+442079460958', 'This looks like a number outside the United States: please enter it under International Phone, with + and its country code.'],
    ['phone_home', '919845067890', 'This looks like a number outside the United States: please enter it under International Phone, with + and its country code.'],
    ['phone_mobile', '+919845067890', 'This looks like a number outside the United States: please enter it under International Phone, with + and its country code.'],
    ['phone_home', '(123) 456-7890', 'Please enter a valid home phone number.'],
    ['counselor_phone', '919845067890', 'The counselor phone number you entered is invalid. A number outside the United States starts with + and its country code.'],
    ['counselor_phone', '+9112', 'The counselor phone number you entered is invalid.'],
  ])('%s %j: %s', (key, value, message) => {
    expect(errorsWith({ [key]: value })[key]).toEqual([message]);
  });

  it('a valid number from abroad is taken where one may stand', () => {
    expect(errorsWith({ phone_international: '+442079460958', counselor_phone: '+919845067890' })).toEqual({});
  });

  it('collects every message of a field', () => {
    expect(errorsWith({ phone_mobile: 'x', optin_sms_ind: true })).toEqual({ phone_mobile: ['Please enter a valid cell phone number.'] });
    expect(errorsWith({ first_name: 'x'.repeat(46) }).first_name).toEqual(['Legal First Name can have at most 45 characters.']);
  });
});

describe('address', () => {
  it('needs a state in the United States and Canada only', () => {
    expect(errorsWith({ state: '' }).state).toEqual(['State or Province']);
    expect(errorsWith({ country: 'CAN', state: '', zip: '' }).state).toEqual(['State or Province']);
    expect(errorsWith({ country: 'FRA', state: '', zip: '' }).state).toBeUndefined();
  });

  it('needs a ZIP of at least 5 characters in the United States', () => {
    expect(errorsWith({ zip: '' }).zip).toEqual(['ZIP/Postal Code']);
    expect(errorsWith({ zip: '8020' }).zip).toEqual(['ZIP/Postal Code must be at least 5 characters.']);
    expect(errorsWith({ country: 'CAN', zip: 'K1A' }).zip).toBeUndefined();
  });

  it.each([
    ['mailing_addr_effective_date', '2019-12-31', 'The minimum supported year is 2020'],
    ['mailing_addr_effective_date', '2028-01-01', 'The maximum supported year is 2027'],
    ['mailing_addr_expiration_date', '2022-12-31', 'The minimum supported year is 2023'],
    ['mailing_addr_expiration_date', '2031-01-01', 'The maximum supported year is 2030'],
  ])('%s %s → %s', (key, value, message) => {
    expect(errorsWith({ mailing_addr_same_as_perm_addr: 'N', [key]: value })[key]).toEqual([message]);
  });

  it('accepts the edges of the windows and blank dates', () => {
    expect(errorsWith({ mailing_addr_effective_date: '2020-01-01', mailing_addr_expiration_date: '2030-12-31' })).toEqual({});
    expect(errorsWith({ mailing_addr_effective_date: '', mailing_addr_expiration_date: '' })).toEqual({});
  });
});

describe('citizenship', () => {
  it('needs visa status for N and the country for N or R', () => {
    expect(errorsWith({ citizenship_type: 'N' })).toEqual({ citizenship: ['Country of Citizenship'], citizenship_visa_status: ['Visa Status'] });
    expect(errorsWith({ citizenship_type: 'R' })).toEqual({ citizenship: ['Country of Citizenship'] });
    expect(errorsWith({ citizenship_type: 'C' })).toEqual({});
  });
});

describe('legacy', () => {
  it('needs connection 1 when legacy_ind is Y', () => {
    expect(errorsWith({ legacy_ind: 'Y' })).toEqual({
      legacy_relationship: ['Family Connection 1: Relationship'],
      legacy_first_name: ['Family Connection 1: Legal First Name'],
      legacy_last_name: ['Family Connection 1: Family Name'],
    });
  });

  it('needs all three of connections 2 to 5 once any is filled', () => {
    const one = { legacy_ind: 'Y', legacy_relationship: 'Parent', legacy_first_name: 'Ana', legacy_last_name: 'Rivera' };
    expect(errorsWith(one)).toEqual({});
    expect(errorsWith({ ...one, legacy_3_first_name: 'Luis' })).toEqual({
      legacy_3_relationship: ['Family Connection 3: Relationship'],
      legacy_3_last_name: ['Family Connection 3: Family Name'],
    });
  });
});

describe('parents', () => {
  it('need relationship and names once the marital status is filled', () => {
    expect(errorsWith({ parent_relationship: '', parent_first_name: '', parent_last_name: '' })).toEqual({
      parent_relationship: ['Primary Parent/Guardian: Relationship to You'],
      parent_first_name: ['Primary Parent/Guardian: Legal First Name'],
      parent_last_name: ['Primary Parent/Guardian: Legal Last Name'],
    });
  });

  it('need parent 2 when parent_2_living is Y', () => {
    expect(errorsWith({ parent_2_living: 'Y' })).toEqual({
      parent_2_relationship: ['Secondary Parent/Guardian: Relationship to You'],
      parent_2_first_name: ['Secondary Parent/Guardian: Legal First Name'],
      parent_2_last_name: ['Secondary Parent/Guardian: Legal Last Name'],
    });
  });

  it('check e-mails and phones', () => {
    const parent2 = { parent_2_living: 'Y', parent_2_relationship: 'Father', parent_2_first_name: 'Luis', parent_2_last_name: 'Rivera' };
    expect(errorsWith({ ...parent2, parent_email_address: 'ana@', parent_2_phone: '555' })).toEqual({
      parent_email_address: ['Primary Parent/Guardian: Please provide a valid email address.'],
      parent_2_phone: ['Secondary Parent/Guardian: Please enter a valid home phone number.'],
    });
    // Parent 2's questions are asked only for a living parent: hidden, they ask nothing.
    expect(errorsWith({ parent_2_phone: '555' })).toEqual({});
  });

  it('do not apply when there is no parent to list', () => {
    expect(errorsWith({ no_parent_primary: true, parent_marital_status: '', parent_relationship: '', parent_email_address: 'bad' })).toEqual({});
  });
});

describe('siblings', () => {
  it('need last name, age and relationship once a first name is given', () => {
    expect(errorsWith({ sibling_2_first_name: 'Sam' })).toEqual({
      sibling_2_last_name: ['Sibling 2: Last Name'],
      sibling_2_age: ['Sibling 2: Age'],
      sibling_2_relationship: ['Sibling 2: Relationship'],
    });
    expect(errorsWith({ sibling_first_name: 'Sam', sibling_last_name: 'R', sibling_age: 'ten', sibling_relationship: 'Brother' })).toEqual({
      sibling_age: ['Sibling 1: Age must start with a number.'],
    });
  });
});

describe('academics', () => {
  it.each([
    [{ hs_gpa: 'A+' }, 'hs_gpa', 'Weighted Cumulative GPA must be a numeric value.'],
    [{ counselor_email_address: 'counselor@school' }, 'counselor_email_address', 'The counselor email address you entered is invalid.'],
    [{ counselor_phone: '555-0100' }, 'counselor_phone', 'The counselor phone number you entered is invalid.'],
    [{ hs_name: '' }, 'hs_name', 'Search for Your School'],
    [{ hs_attend_from_year: '' }, 'hs_attend_from_month', 'Attended From: Year'],
    [{ grad_year: '' }, 'grad_month', 'Graduation Year'],
  ] as const)('%j → %s: %s', (change, key, message) => {
    expect(errorsWith(change)[key]).toEqual([message]);
  });

  it('accepts a month holding ANSWERED without its year, and a numeric GPA', () => {
    expect(errorsWith({ grad_year: '', grad_month: 'ANSWERED', hs_gpa: '3.85' })).toEqual({});
  });

  it('asks a second high school only once something is put in it, and no graduation month of a school left before graduating (issue 28)', () => {
    expect(errorsWith({ hs_2_city: 'Boulder' })).toEqual({
      hs_2_name: ['High School 2: Search for Your School'],
      hs_2_attend_from_month: ['High School 2: Attended From: Month'],
    });
    expect(errorsWith({ hs_3_name: 'Fairview High School', hs_3_attend_from_month: '9', hs_3_attend_from_year: String(now.getFullYear() - 2) })).toEqual({});
    // Given all the same, its year is asked for as in every school.
    expect(errorsWith({ hs_2_name: 'Boulder High School', hs_2_attend_from_month: '9', hs_2_attend_from_year: String(now.getFullYear() - 2), hs_2_grad_month: '5' })).toEqual({
      hs_2_grad_month: ['High School 2: Graduation Year'],
    });
  });

  it('needs co_attend and co_reside when co_grad is Y', () => {
    expect(Object.keys(errorsWith({ co_grad: 'Y' }))).toEqual(['co_attend', 'co_reside']);
  });
});

describe('final steps', () => {
  it('need the comments when the answer is Y', () => {
    expect(errorsWith({ conviction: 'Y', suspended: 'Y' })).toEqual({
      conviction_comment: ['Please explain.'],
      suspended_comment: ['Please explain.'],
    });
  });

  it('need legal_agree to be true', () => {
    expect(errorsWith({ legal_agree: false }).legal_agree).toEqual(['I agree to the above statements.']);
  });

  it('allow the partner character limit in the essay', () => {
    expect(errorsWith({ additional_info_essay: 'x'.repeat(7000) })).toEqual({});
    expect(errorsWith({ additional_info_essay: 'x'.repeat(7001) }).additional_info_essay).toEqual([
      'Additional information can have at most 7000 characters.',
    ]);
  });
});

describe('rules are data on the catalogue entries', () => {
  it('a new phone field is validated with the phone message, from its entry alone', () => {
    const withPhone = catalogue.map((group) => (group.id === 'person' ? { ...group, fields: [...group.fields, phone('x_phone', 'X Phone')] } : group));
    const answers = { ...completeApplication, x_phone: '555-0100' };
    expect(validateApplication(answers, { now, groups: withPhone })).toEqual({ x_phone: ['X Phone: Please enter a valid phone number.'] });
    expect(validateApplication({ ...answers, x_phone: '(303) 555-0100' }, { now, groups: withPhone })).toEqual({});
    // The shipped catalogue does not know the key.
    expect(validateApplication(answers, { now })).toEqual({});
  });

  it('asks nothing of a hidden field, whatever it holds', () => {
    expect(errorsWith({ mailing_addr_same_as_perm_addr: 'Y', mailing_addr_effective_date: '1990-01-01' })).toEqual({});
    expect(errorsWith({ co_grad: 'N', co_attend: '' })).toEqual({});
  });

  it('checks the year of every high school the same way', () => {
    expect(errorsWith({ hs_2_name: 'Boulder High School', hs_2_attend_from_month: '9', hs_2_grad_month: '5', hs_2_grad_year: '2027' })).toEqual({
      hs_2_attend_from_month: ['High School 2: Attended From: Year'],
    });
  });

  it('orders the messages as the form asks the questions', () => {
    expect(Object.keys(validateApplication({}, { now })).slice(0, 4)).toEqual(['first_name', 'last_name', 'birth_date', 'phone_home']);
  });
});

describe('phones from abroad (issue 28)', () => {
  beforeAll(() => setPhoneLibrary({ isValid: isValidPhoneNumber, format: (e164) => e164 }));
  afterAll(() => setPhoneLibrary(null));

  it("takes a parent's and the counselor's international number, in E.164", () => {
    expect(errorsWith({ parent_phone: '+919845067890', counselor_phone: '+442079460958' })).toEqual({});
  });

  it("refuses, with the spec's messages, an international number that is none, and one where only a US number may stand", () => {
    expect(errorsWith({ parent_phone: '+9112', counselor_phone: '+44207' })).toEqual({
      parent_phone: ['Primary Parent/Guardian: Please enter a valid home phone number.'],
      counselor_phone: ['The counselor phone number you entered is invalid.'],
    });
    // Issue 48: a number from abroad where only a US number may stand points to International Phone.
    expect(errorsWith({ phone_home: '+919845067890' })).toEqual({ phone_home: ['This looks like a number outside the United States: please enter it under International Phone, with + and its country code.'] });
  });
});

// Issue 48: a state or province that does not belong to the country was stored and submitted.
describe('a dropdown whose list follows another answer', () => {
  it.each([
    [{ country: 'USA', country_desc: 'United States', state: 'Ontario', state_desc: 'Ontario' }, 'state', 'State or Province: Please choose one of the choices offered for your answer above it.'],
    [{ hs_country: 'USA', hs_country_desc: 'United States', hs_state: 'Quebec', hs_state_desc: 'Quebec' }, 'hs_state', 'State or Province: Please choose one of the choices offered for your answer above it.'],
  ])('%j is refused at submit: %s', (change, key, message) => {
    expect(validateApplication({ ...completeApplication, ...change })[key]).toEqual([message]);
  });

  it('takes one that belongs', () => {
    expect(validateApplication({ ...completeApplication, country: 'CAN', country_desc: 'Canada', state: 'Ontario', state_desc: 'Ontario', zip: 'M5V 2T6' }).state).toBeUndefined();
  });
});
