import type { Option } from './options';

/** Option lists of fields whose options the spec does not give: those a US admissions form uses. */
const named = (labels: string[]): Option[] => labels.map((label) => ({ value: label, label }));

export const prefixOptions = named(['Mr.', 'Ms.', 'Mrs.', 'Mx.', 'Dr.']);
export const suffixOptions = named(['Jr.', 'Sr.', 'II', 'III', 'IV']);
export const genderOptions = named(['Woman', 'Man', 'Nonbinary', 'Another gender', 'Prefer not to say']);
export const pronounOptions = named(['She/her', 'He/him', 'They/them', 'Another set of pronouns', 'Prefer not to say']);
export const citizenshipTypeOptions: Option[] = [
  { value: 'C', label: 'U.S. citizen or U.S. national' },
  { value: 'R', label: 'U.S. permanent resident' },
  { value: 'N', label: 'Not a U.S. citizen or permanent resident' },
];
export const visaOptions = named(['F-1 Student', 'J-1 Exchange Visitor', 'H-4 Dependent', 'L-2 Dependent', 'DACA', 'Asylee or refugee', 'Other', 'I do not have a visa yet']);
export const religionOptions = named([
  'None', 'Buddhist', 'Catholic', 'Christian (other)', 'Hindu', 'Jewish', 'Latter-day Saints', 'Muslim', 'Orthodox', 'Protestant', 'Sikh', 'Other', 'Prefer not to say',
]);
export const disabilityOptions: Option[] = [
  { value: 'Y', label: 'Yes' },
  { value: 'N', label: 'No' },
  { value: 'P', label: 'Prefer not to say' },
];
export const militaryStatusOptions = named(['None', 'Currently serving', 'Veteran', 'Reserve or National Guard', 'Dependent of a service member']);
export const branchOptions = named(['Army', 'Navy', 'Air Force', 'Marine Corps', 'Coast Guard', 'Space Force']);
export const maritalStatusOptions = named(['Married', 'Civil union or domestic partners', 'Separated', 'Divorced', 'Never married', 'Widowed']);
export const parentRelationshipOptions = named(['Mother', 'Father', 'Stepmother', 'Stepfather', 'Legal guardian', 'Grandparent', 'Foster parent', 'Other']);
export const legacyRelationshipOptions = named(['Parent', 'Stepparent', 'Grandparent', 'Sibling', 'Aunt or uncle', 'Cousin', 'Other']);
export const siblingRelationshipOptions = named(['Brother', 'Sister', 'Sibling', 'Half-brother', 'Half-sister', 'Stepbrother', 'Stepsister']);
export const majorOptions = named([
  'Undecided', 'Accounting', 'Biology', 'Business Administration', 'Chemistry', 'Communication', 'Computer Science', 'Criminology',
  'Economics', 'Education', 'English', 'Environmental Studies', 'Finance', 'History', 'Marketing', 'Mathematics', 'Music',
  'Neuroscience', 'Nursing', 'Philosophy', 'Physics', 'Political Science', 'Psychology', 'Sociology', 'Spanish', 'Theatre',
]);
export const careerGoalOptions = named([
  'Undecided', 'Arts and design', 'Business and finance', 'Education', 'Engineering and technology', 'Government and law',
  'Health care', 'Nonprofit and social services', 'Research and science', 'Other',
]);
export const heardAboutOptions = named([
  'A friend or family member', 'A high school counselor', 'An admissions counselor visit', 'A college fair', 'A campus visit',
  'E-mail or mail from the university', 'Social media', 'A web search', 'An athletics coach', 'Other',
]);
export const influenceOptions = named([
  'Academic programs', 'Scholarships and cost', 'Location', 'Campus visit', 'Class size', 'Athletics', 'Reputation', 'Family or friends', 'Other',
]);
export const counselorPositionOptions = named(['School counselor', 'College counselor', 'Independent counselor', 'Teacher', 'Principal', 'Other']);
export const gpaTypeOptions = named(['Weighted', 'Unweighted']);
export const gpaScaleOptions = named(['4.0', '5.0', '6.0', '100', 'Other']);

/** Entry terms: fall and spring of the next two academic years. */
export function entryTermOptions(now = new Date()): Option[] {
  const year = now.getFullYear();
  return [`Fall ${year + 1}`, `Spring ${year + 2}`, `Fall ${year + 2}`].map((label) => ({ value: label, label }));
}
