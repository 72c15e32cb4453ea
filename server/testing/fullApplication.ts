import { allFields, repeatMaxByButton } from '../../domain/catalogue';
import { isShown, optionsFor } from '../../domain/rules/visibility';
import type { RuleContext } from '../../domain/rules/conditions';
import type { ServiceView } from '../../views/document/ApplicationDocument';
import { DEFAULT_INPUT_MAX_LENGTH, DEFAULT_TEXTAREA_MAX_LENGTH } from '../../domain/config';

/**
 * The longest application an applicant can reasonably send (issue 30's page budget): every
 * repeated group at its most (five siblings, five relatives, three high schools), both parents,
 * colleges, every optional answer, each choice the one that opens the most further questions,
 * comments of a paragraph and an essay of 2,000 characters. Built from the catalogue, so a new
 * field lands in it by itself.
 */
export function fullApplicationView({ textsAtTheirLimit = false }: { textsAtTheirLimit?: boolean } = {}): ServiceView {
  const answer: RuleContext = {};
  const documentAnswer: ServiceView['document_answer'] = {};
  for (const field of allFields) {
    if (field.type === 'select' || field.type === 'radio' || field.type === 'checkbox') continue;
    answer[field.key] = textsAtTheirLimit && (field.type === 'text' || field.type === 'textarea') ? atTheLimit(field) : typedValue(field.type, field.key, field.maxLength);
    if (field.type === 'document') documentAnswer[field.key] = { file_name: `${field.key.replace(/_/g, '-')}.pdf`, file_size: 48_213 };
  }
  answer.first_name = 'Alexandra';
  answer.last_name = 'Fitzgerald-Okonkwo';
  // Each choice: the option that shows the most questions. Twice over, since a later choice can open an earlier one's branch.
  // A checkbox is a choice too: "I do not have a parent to list" checked would hide both parents.
  const choices = allFields.filter((field) => field.type === 'select' || field.type === 'radio' || field.type === 'checkbox');
  // Only the questions a choice can show or hide are counted for it (a choice of country was
  // tried against every field of the application for each of its 250 options: minutes).
  const controls = (field: (typeof allFields)[number]) => [...(field.group.showWhen ?? []), ...(field.showWhen ?? [])].map((rule) => rule.valueKey).concat(field.dependsOn ? [field.dependsOn.key] : []);
  const dependents = new Map(choices.map((choice) => [choice.key, allFields.filter((f) => controls(f).includes(choice.key))]));
  for (let pass = 0; pass < 2; pass++) {
    for (const field of choices) {
      const shownAmong = (with_: RuleContext) => dependents.get(field.key)!.filter((f) => isShown(f, with_)).length;
      if (field.type === 'checkbox') {
        const shownWith = (checked: boolean) => shownAmong({ ...answer, [field.key]: checked });
        answer[field.key] = shownWith(true) >= shownWith(false);
        continue;
      }
      const options = (optionsFor(field, answer) ?? []).filter((option) => option.value !== '');
      let best = { value: options[0]?.value, shown: -1 };
      for (const option of options) {
        const shown = shownAmong({ ...answer, [field.key]: option.value });
        if (shown > best.shown) best = { value: option.value, shown };
      }
      if (best.value !== undefined) {
        answer[field.key] = best.value;
        answer[`${field.key}_desc`] = options.find((option) => option.value === best.value)!.label;
      }
    }
  }
  return {
    username: 'alexandra.fitzgerald-okonkwo@example.com',
    application_number: 100042,
    submitted_at: '2026-11-20T16:02:11.000Z',
    answer: answer as ServiceView['answer'],
    add_another: Object.fromEntries(repeatMaxByButton),
    document_answer: documentAnswer,
    tabs: { additional_info_tabs: 'write' },
  };
}

const SENTENCE = 'I spent the summer volunteering at the community clinic, where I learned to listen before I speak. ';

/**
 * A free text as long as its field takes (issue 48's maximal application): a text area at its
 * limit in sentences, a text box at its limit in words, so lines wrap as written text does.
 */
function atTheLimit(field: { type: string; key: string; maxLength?: number }): string {
  if (/year/.test(field.key)) return '2024';
  if (/month/.test(field.key)) return '9';
  if (/zip/.test(field.key)) return '80204';
  const limit = field.maxLength ?? (field.type === 'textarea' ? DEFAULT_TEXTAREA_MAX_LENGTH : DEFAULT_INPUT_MAX_LENGTH);
  const words = field.type === 'textarea' ? SENTENCE : 'Thomas Jefferson Memorial Academy of Science and Letters ';
  return words.repeat(Math.ceil(limit / words.length)).slice(0, limit).trimEnd();
}

function typedValue(type: string, key: string, maxLength = 200): string | boolean {
  const fit = (text: string) => text.slice(0, maxLength);
  switch (type) {
    case 'date':
      return '2008-04-17';
    case 'phone':
      return '(303) 555-0142';
    case 'email':
      return 'parent.fitzgerald@example.com';
    case 'ssn':
      return '123-45-6789';
    case 'document':
      return 'ANSWERED';
    case 'textarea':
      return fit(SENTENCE.repeat(key === 'additional_info_essay' ? 20 : 4).trim());
    default:
      return fit(/year/.test(key) ? '2024' : /month/.test(key) ? '9' : /zip/.test(key) ? '80204' : 'Thomas Jefferson High School');
  }
}
