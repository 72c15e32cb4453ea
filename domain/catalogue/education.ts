import { ANSWERED, partnerConfig } from '../config';
import { answerMessages } from '../messages';
import { statesOf } from './about';
import { answered, email, equals, lookup, notAnswered, phoneHereOrAbroad, radio, select, text, when } from './build';
import {
  careerGoalOptions,
  counselorPositionOptions,
  entryTermOptions,
  gpaScaleOptions,
  gpaTypeOptions,
  heardAboutOptions,
  influenceOptions,
  majorOptions,
  prefixOptions,
} from './lists';
import { countryOptions, monthOptions, stateAndProvinceOptions, yearOptions } from './options';
import { yesNo, type FieldDef, type GroupDef } from './types';

/**
 * A month whose year is left empty must hold the placeholder ANSWERED (spec/form.md §5): otherwise the
 * year is what is missing, and the message is its label.
 */
const yearOfMonth = (monthKey: string, year: FieldDef): Pick<FieldDef, 'invalidWhen'> => ({
  invalidWhen: [{ when: [answered(monthKey), notAnswered(year.key), when(monthKey, 'notEquals', ANSWERED)], message: year.label }],
});
const attendFromYear = select('hs_attend_from_year', 'Attended From: Year', yearOptions(8, 'past'));
const gradYear = select('grad_year', 'Graduation Year', yearOptions(8, 'future', new Date().getFullYear() - 4));

export const educationGroups: GroupDef[] = [
  {
    id: 'program',
    page: 'education',
    title: 'Entry and Program',
    fields: [
      select('entry_term', 'Entry Term', entryTermOptions(), { required: true }),
      select('applied_major', 'Intended Major', majorOptions, { required: true }),
      select('career_goal', 'Career Goal', careerGoalOptions, { required: true }),
      select('career_goal_2', 'Second Career Goal', careerGoalOptions),
      radio('on_campus', 'Do you plan to live on campus?', yesNo),
      radio('fin_aid', 'Do you plan to apply for financial aid?', yesNo),
      radio('athletic_coach_convo', 'Have you talked with one of our athletics coaches?', yesNo),
      select('first_hear_regis', `How did you first hear about ${partnerConfig.name}?`, heardAboutOptions, { required: true }),
      select('influence', 'What most influenced your decision to apply?', influenceOptions),
      select('influence_2', 'What else influenced your decision?', influenceOptions),
    ],
  },
  {
    id: 'colorado',
    page: 'education',
    title: 'Colorado Residency',
    fields: [
      radio('co_grad', 'Will you graduate from a Colorado high school?', yesNo, { required: true }),
      radio('co_attend', 'Will you have attended a Colorado high school for at least three years?', yesNo, { required: true, showWhen: [equals('co_grad', 'Y')] }),
      radio('co_reside', 'Will you have lived in Colorado for at least three years?', yesNo, { required: true, showWhen: [equals('co_grad', 'Y')] }),
    ],
  },
  {
    id: 'high_school',
    page: 'education',
    title: 'High School',
    description: 'First the school you will graduate from; then any other high school you attended.',
    fields: [
      lookup('hs_name', 'Search for Your School', {
        required: true,
        maxLength: 100,
        hint: 'Type part of its name or its city, then choose it from the list.',
        lookup: {
          category: 'hs_ceeb',
          fills: { name: 'hs_name', ceeb: 'hs_ceeb', address_line_1: 'hs_address_line_1', city: 'hs_city', state: 'hs_state', zip: 'hs_zip', country: 'hs_country' },
          chosenKey: 'hs_ceeb',
          credit: {
            text: 'School list: NCES–CEEB crosswalk, University of Colorado Boulder Office of Data Analytics, CC BY-SA 4.0',
            href: 'https://creativecommons.org/licenses/by-sa/4.0/',
          },
        },
      }),
      text('hs_ceeb', 'CEEB Code', { maxLength: 6 }),
      text('hs_address_line_1', 'Street Address', { maxLength: 100 }),
      text('hs_city', 'City'),
      select('hs_state', 'State or Province', stateAndProvinceOptions, { dependsOn: statesOf('hs_country') }),
      text('hs_zip', 'ZIP/Postal Code', { maxLength: 10 }),
      select('hs_country', 'Country', countryOptions),
      select('hs_attend_from_month', 'Attended From: Month', monthOptions, { required: true, ...yearOfMonth('hs_attend_from_month', attendFromYear) }),
      attendFromYear,
      select('hs_attend_to_month', 'Attended To: Month', monthOptions),
      select('hs_attend_to_year', 'Attended To: Year', yearOptions(8, 'future', new Date().getFullYear() - 4)),
      // Only the school the applicant graduates from asks for it: a school left before graduating
      // (the second or third listed) has no graduation month to give.
      select('grad_month', 'Graduation Month', monthOptions, {
        required: true,
        ...yearOfMonth('grad_month', gradYear),
        laterInstances: { required: false, hint: 'Only if you graduated from this school.' },
      }),
      gradYear,
    ],
    repeat: {
      buttonId: 'add_high_school',
      buttonLabel: 'Add another high school',
      max: 3,
      keyFor: (key, n) => (n === 1 ? key : key.startsWith('hs_') ? key.replace(/^hs_/, `hs_${n}_`) : `hs_${n}_${key}`),
      messagePrefix: (n) => (n === 1 ? '' : `High School ${n}: `),
    },
  },
  {
    id: 'counselor',
    page: 'education',
    title: 'School Counselor',
    fields: [
      select('counselor_position', 'Position', counselorPositionOptions),
      select('counselor_prefix', 'Prefix', prefixOptions),
      text('counselor_first_name', 'First Name'),
      text('counselor_last_name', 'Last Name'),
      email('counselor_email_address', 'Email Address', { maxLength: 254, formatMessage: answerMessages.counselorEmail }),
      phoneHereOrAbroad('counselor_phone', 'Phone', { formatMessage: answerMessages.counselorPhone, hint: 'A number outside the United States starts with + and its country code.' }),
    ],
  },
  {
    id: 'gpa',
    page: 'education',
    title: 'Grades',
    fields: [
      radio('college_credit', 'Have you earned college credit?', yesNo),
      text('hs_gpa', 'Weighted Cumulative GPA', { maxLength: 6, hint: 'As on your transcript, for example 3.85.', format: { pattern: /^\d/, message: answerMessages.gpaNumeric } }),
      select('gpa_type', 'GPA Type', gpaTypeOptions),
      select('gpa_scale', 'GPA Scale', gpaScaleOptions),
      text('gpa_scale_other', 'Other GPA Scale', { showWhen: [equals('gpa_scale', 'Other')], maxLength: 10 }),
    ],
  },
];
