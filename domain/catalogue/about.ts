import { MAX_AGE, MIN_AGE, partnerConfig } from '../config';
import { answerMessages } from '../messages';
import type { Rule } from '../rules/conditions';
import { answered, checkbox, date, documentField, email, equals, internationalPhone, notAnswered, phone, phoneHereOrAbroad, radio, select, text, textarea, when } from './build';
import {
  branchOptions,
  citizenshipTypeOptions,
  disabilityOptions,
  genderOptions,
  legacyRelationshipOptions,
  maritalStatusOptions,
  militaryStatusOptions,
  parentRelationshipOptions,
  prefixOptions,
  pronounOptions,
  religionOptions,
  siblingRelationshipOptions,
  suffixOptions,
  visaOptions,
} from './lists';
import { canadianProvinceOptions, countryOptions, countryOptionsWithoutUsa, stateAndProvinceOptions, usStateOptions } from './options';
import { yesNo, type FieldDef, type GroupDef, type YearWindow } from './types';

/** The state dropdown follows the country: US states for USA, provinces for Canada, hidden otherwise. */
export const statesOf = (countryKey: string): NonNullable<FieldDef['dependsOn']> => ({
  key: countryKey,
  category: 'displayAndOptions',
  optionsByValue: { USA: usStateOptions, CAN: canadianProvinceOptions },
});

/** A year window of spec/form.md §5, relative to the current year, with the minimum/maximum year messages. */
const supportedYears = (from: number, to: number): YearWindow => ({ from, to, tooEarly: answerMessages.minYear, tooLate: answerMessages.maxYear });

/**
 * An address block with a key prefix ('', 'mailing_', 'parent_', 'parent_2_'). The applicant's own
 * (required) address also needs a ZIP of 5 characters in the United States (spec/form.md §5).
 */
function address(prefix: string, extra: { required?: boolean; showWhen?: FieldDef['showWhen']; section?: string } = {}): FieldDef[] {
  const base = prefix;
  const shown = extra.showWhen ?? [];
  const inUsa = [equals(`${base}country`, 'USA')];
  const zipRules: Partial<FieldDef> = extra.required
    ? { requiredWhen: [{ when: inUsa }], minLength: { length: 5, message: answerMessages.zipTooShort, when: inUsa } }
    : {};
  return [
    text(`${base}address_line_1`, 'Street Address', { required: extra.required, showWhen: shown, autoComplete: 'address-line1', maxLength: 100, startsSection: extra.section }),
    text(`${base}address_line_2`, 'Apartment, Suite or Unit', { showWhen: shown, autoComplete: 'address-line2', maxLength: 100 }),
    text(`${base}city`, 'City', { required: extra.required, showWhen: shown, autoComplete: 'address-level2' }),
    select(`${base}state`, 'State or Province', stateAndProvinceOptions, {
      required: extra.required,
      showWhen: shown,
      dependsOn: statesOf(`${base}country`),
      autoComplete: 'address-level1',
    }),
    text(`${base}zip`, 'ZIP/Postal Code', { showWhen: shown, autoComplete: 'postal-code', maxLength: 10, ...zipRules }),
    select(`${base}country`, 'Country', countryOptions, { required: extra.required, showWhen: shown, autoComplete: 'country' }),
  ];
}

/**
 * A parent or guardian; their relationship and names are required while `namesRequiredWhen` holds,
 * and every message names whom it is about (spec/form.md §5).
 */
function parent(prefix: 'parent_' | 'parent_2_', title: string, showWhen: Rule[], namesRequiredWhen: Rule[], section?: string): FieldDef[] {
  const sameAddress = `${prefix}addr_same_as_stu_perm`;
  const named = (label: string): Partial<FieldDef> => ({ requiredWhen: [{ when: namesRequiredWhen }], requiredMessage: `${title}: ${label}` });
  return [
    select(`${prefix}relationship`, 'Relationship to You', parentRelationshipOptions, { showWhen, startsSection: section, ...named('Relationship to You') }),
    select(`${prefix}prefix`, 'Prefix', prefixOptions, { showWhen }),
    text(`${prefix}first_name`, 'Legal First Name', { showWhen, ...named('Legal First Name') }),
    text(`${prefix}middle_name`, 'Middle Name', { showWhen }),
    text(`${prefix}last_name`, 'Legal Last Name', { showWhen, ...named('Legal Last Name') }),
    select(`${prefix}suffix`, 'Suffix', suffixOptions, { showWhen }),
    email(`${prefix}email_address`, 'Email Address', { showWhen, maxLength: 254, formatMessage: answerMessages.email(title) }),
    phoneHereOrAbroad(`${prefix}phone`, 'Phone', { showWhen, formatMessage: answerMessages.parentPhone(title), hint: 'A number outside the United States starts with + and its country code.' }),
    radio(sameAddress, `Does your ${title.toLowerCase()} live at your permanent address?`, yesNo, { showWhen }),
    ...address(prefix, { showWhen: [...showWhen, equals(sameAddress, 'N')] }),
    text(`${prefix}job_title`, 'Job Title', { showWhen }),
    text(`${prefix}employer_name`, 'Employer', { showWhen }),
  ];
}

/** A sibling with a first name needs the rest (spec/form.md §5). */
const siblingNamed = [{ when: [answered('sibling_first_name')] }];

export const aboutGroups: GroupDef[] = [
  {
    id: 'person',
    page: 'about',
    title: 'Personal Information',
    fields: [
      select('prefix', 'Prefix', prefixOptions),
      text('first_name', 'Legal First Name', { required: true, autoComplete: 'given-name' }),
      text('middle_name', 'Middle Name', { autoComplete: 'additional-name' }),
      text('last_name', 'Legal Last Name', { required: true, autoComplete: 'family-name' }),
      select('suffix', 'Suffix', suffixOptions),
      text('preferred_name', 'Preferred Name', { hint: 'The name you would like us to use, if different.', autoComplete: 'nickname' }),
      date('birth_date', 'Birth Date', {
        required: true,
        autoComplete: 'bday',
        yearWindow: { from: -MAX_AGE, to: -MIN_AGE, tooEarly: () => answerMessages.dateNotSupported, tooLate: () => answerMessages.tooYoung },
      }),
      select('gender', 'Gender', genderOptions),
      select('pronouns', 'Pronouns', pronounOptions),
      phone('phone_home', 'Home Phone', {
        hint: 'For example (303) 555-0142.',
        autoComplete: 'tel-national',
        formatMessage: answerMessages.homePhone,
        // An international phone makes the home phone optional.
        requiredWhen: [{ when: [notAnswered('phone_mobile'), notAnswered('phone_international')], message: answerMessages.onePhone }],
      }),
      phone('phone_mobile', 'Cell Phone', {
        hint: 'For example (303) 555-0142.',
        autoComplete: 'tel-national',
        formatMessage: answerMessages.cellPhone,
        requiredWhen: [{ when: [when('optin_sms_ind', 'equals', true)], message: answerMessages.smsNeedsCell }],
      }),
      checkbox('optin_sms_ind', 'Send me text message updates about my application.'),
      internationalPhone('phone_international', 'International Phone', { hint: 'If you have a phone number outside the United States: + and its country code first, for example +44 20 7946 0958.', autoComplete: 'tel' }),
    ],
  },
  {
    id: 'address',
    page: 'about',
    title: 'Permanent Address',
    fields: [
      ...address('', { required: true }),
      radio('mailing_addr_same_as_perm_addr', 'Is your mailing address the same as your permanent address?', yesNo),
      ...address('mailing_', { showWhen: [equals('mailing_addr_same_as_perm_addr', 'N')], section: 'Mailing Address' }),
      text('mailing_attention', 'Attention or In Care Of', { showWhen: [equals('mailing_addr_same_as_perm_addr', 'N')] }),
      date('mailing_addr_effective_date', 'Mailing Address Start Date', { showWhen: [equals('mailing_addr_same_as_perm_addr', 'N')], yearWindow: supportedYears(-6, 1) }),
      date('mailing_addr_expiration_date', 'Mailing Address End Date', { showWhen: [equals('mailing_addr_same_as_perm_addr', 'N')], yearWindow: supportedYears(-3, 4) }),
    ],
  },
  {
    id: 'citizenship',
    page: 'about',
    title: 'Citizenship',
    fields: [
      radio('citizenship_type', 'Citizenship Status', citizenshipTypeOptions, { required: true }),
      select('citizenship', 'Country of Citizenship', countryOptionsWithoutUsa, { required: true, showWhen: [when('citizenship_type', 'in', ['N', 'R'])] }),
      select('citizenship_visa_status', 'Visa Status', visaOptions, { required: true, showWhen: [equals('citizenship_type', 'N')] }),
      text('alien_registration_number', 'Alien Registration Number', { hint: 'The A-Number on your Permanent Resident Card.', showWhen: [equals('citizenship_type', 'R')], maxLength: 12 }),
      documentField('student_upload_card', 'Permanent Resident Card', { hint: 'A scan or photo of both sides.', showWhen: [equals('citizenship_type', 'R')] }),
    ],
  },
  {
    id: 'demographics',
    page: 'about',
    title: 'Demographics',
    description: 'These questions are optional. Your answers do not affect the decision on your application.',
    fields: [
      radio('ethnicity', 'Are you Hispanic or Latino/a/x?', yesNo),
      checkbox('race_american_indian', 'American Indian or Alaska Native'),
      checkbox('race_asian', 'Asian'),
      checkbox('race_black', 'Black or African American'),
      checkbox('race_native_hawaiian', 'Native Hawaiian or Other Pacific Islander'),
      checkbox('race_white', 'White'),
      radio('first_gen', 'Are you the first in your family to attend college?', yesNo),
      select('religious_affiliation', 'Religious Affiliation', religionOptions),
      radio('spanish_primary', 'Is Spanish the primary language spoken at home?', yesNo),
      radio('disability', 'Do you have a disability?', disabilityOptions),
      textarea('accommodations', 'Accommodations you would like us to know about', { showWhen: [equals('disability', 'Y')] }),
      select('military_enroll_status', 'Military Status', militaryStatusOptions),
      select('branch_affiliation', 'Branch of Service', branchOptions, { showWhen: [when('military_enroll_status', 'notIn', ['', 'None', undefined])] }),
    ],
  },
  {
    id: 'parents',
    page: 'about',
    title: 'Parents and Guardians',
    fields: [
      checkbox('no_parent_primary', 'I do not have a parent or guardian to list.'),
      select('parent_marital_status', "Parents' Marital Status", maritalStatusOptions, { required: true, showWhen: [when('no_parent_primary', 'notEquals', true)] }),
      ...parent('parent_', 'Primary Parent/Guardian', [when('no_parent_primary', 'notEquals', true)], [answered('parent_marital_status')], 'Primary Parent/Guardian'),
      radio('parent_2_living', 'Is your second parent or guardian living?', yesNo, {
        showWhen: [when('no_parent_primary', 'notEquals', true)],
        startsSection: 'Secondary Parent/Guardian',
      }),
      date('parent_2_deceased_day', 'Date of Passing', { showWhen: [when('no_parent_primary', 'notEquals', true), equals('parent_2_living', 'N')] }),
      ...parent('parent_2_', 'Secondary Parent/Guardian', [when('no_parent_primary', 'notEquals', true), equals('parent_2_living', 'Y')], []),
    ],
  },
  {
    id: 'legacy',
    page: 'about',
    title: `Family Connections to ${partnerConfig.name}`,
    fields: [radio('legacy_ind', `Have any of your relatives attended ${partnerConfig.name}?`, yesNo, { required: true })],
  },
  {
    id: 'legacy_connection',
    page: 'about',
    title: 'Family Connection',
    showWhen: [equals('legacy_ind', 'Y')],
    fields: [
      select('legacy_relationship', 'Relationship', legacyRelationshipOptions, { required: true }),
      text('legacy_first_name', 'Legal First Name', { required: true }),
      text('legacy_last_name', 'Family Name', { required: true }),
      text('legacy_maiden', 'Maiden Name'),
    ],
    repeat: {
      buttonId: 'add_legacy',
      buttonLabel: 'Add another family connection',
      max: 5,
      keyFor: (key, n) => (n === 1 ? key : key.replace(/^legacy_/, `legacy_${n}_`)),
      messagePrefix: (n) => `Family Connection ${n}: `,
    },
  },
  {
    id: 'siblings',
    page: 'about',
    title: 'Sibling',
    fields: [
      text('sibling_first_name', 'First Name'),
      text('sibling_last_name', 'Last Name', { requiredWhen: siblingNamed }),
      text('sibling_age', 'Age', { maxLength: 3, hint: 'In years.', requiredWhen: siblingNamed, format: { pattern: /^\d/, message: answerMessages.ageNumeric } }),
      select('sibling_relationship', 'Relationship', siblingRelationshipOptions, { requiredWhen: siblingNamed }),
    ],
    repeat: {
      buttonId: 'add_sibling',
      buttonLabel: 'Add another sibling',
      max: 5,
      keyFor: (key, n) => (n === 1 ? key : key.replace(/^sibling_/, `sibling_${n}_`)),
      messagePrefix: (n) => `Sibling ${n}: `,
    },
  },
];
