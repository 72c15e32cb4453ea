/** The answer keys of spec/form.md §3: the data model the catalogue must cover, and may not go beyond. */
const person = ['prefix', 'first_name', 'middle_name', 'last_name', 'suffix', 'preferred_name', 'birth_date', 'gender', 'pronouns', 'phone_home', 'phone_mobile', 'optin_sms_ind', 'phone_international'];
const address = [
  'address_line_1', 'address_line_2', 'city', 'state', 'zip', 'country', 'mailing_addr_same_as_perm_addr', 'mailing_address_line_1',
  'mailing_address_line_2', 'mailing_city', 'mailing_state', 'mailing_zip', 'mailing_country', 'mailing_attention',
  'mailing_addr_effective_date', 'mailing_addr_expiration_date',
];
const citizenship = ['citizenship_type', 'citizenship', 'citizenship_visa_status', 'alien_registration_number', 'student_upload_card'];
const demographics = [
  'ethnicity', 'race_american_indian', 'race_asian', 'race_black', 'race_native_hawaiian', 'race_white', 'first_gen',
  'religious_affiliation', 'spanish_primary', 'disability', 'accommodations', 'military_enroll_status', 'branch_affiliation',
];
const parentParts = [
  'relationship', 'prefix', 'first_name', 'middle_name', 'last_name', 'suffix', 'email_address', 'phone', 'addr_same_as_stu_perm',
  'address_line_1', 'address_line_2', 'city', 'state', 'zip', 'country', 'job_title', 'employer_name',
];
const parents = ['parent_marital_status', 'no_parent_primary', 'parent_2_living', 'parent_2_deceased_day', ...parentParts.map((p) => `parent_${p}`), ...parentParts.map((p) => `parent_2_${p}`)];
const numbered = (prefix: string, parts: string[], max: number) =>
  Array.from({ length: max }, (_, i) => parts.map((p) => (i === 0 ? `${prefix}_${p}` : `${prefix}_${i + 1}_${p}`))).flat();
const legacy = ['legacy_ind', ...numbered('legacy', ['relationship', 'first_name', 'last_name', 'maiden'], 5)];
const siblings = numbered('sibling', ['first_name', 'last_name', 'age', 'relationship'], 5);
const program = ['entry_term', 'applied_major', 'career_goal', 'career_goal_2', 'on_campus', 'fin_aid', 'athletic_coach_convo', 'first_hear_regis', 'influence', 'influence_2'];
const highSchoolParts = [
  'hs_name', 'hs_ceeb', 'hs_address_line_1', 'hs_city', 'hs_state', 'hs_zip', 'hs_country', 'hs_attend_from_month',
  'hs_attend_from_year', 'hs_attend_to_month', 'hs_attend_to_year', 'grad_month', 'grad_year',
];
const highSchools = [
  'co_grad', 'co_attend', 'co_reside',
  ...highSchoolParts,
  ...[2, 3].flatMap((n) => highSchoolParts.map((p) => (p.startsWith('hs_') ? p.replace(/^hs_/, `hs_${n}_`) : `hs_${n}_${p}`))),
];
const counselor = ['counselor_position', 'counselor_prefix', 'counselor_first_name', 'counselor_last_name', 'counselor_email_address', 'counselor_phone'];
const gpa = ['college_credit', 'hs_gpa', 'gpa_type', 'gpa_scale', 'gpa_scale_other'];
const finalSteps = ['conviction', 'conviction_comment', 'suspended', 'suspended_comment', 'additional_info_doc', 'additional_info_essay', 'legal_agree', 'counselor_waiver_request', 'signature'];

export const dataModelKeys: ReadonlySet<string> = new Set([
  ...person, ...address, ...citizenship, ...demographics, ...parents, ...legacy, ...siblings,
  ...program, ...highSchools, ...counselor, ...gpa, ...finalSteps,
]);
