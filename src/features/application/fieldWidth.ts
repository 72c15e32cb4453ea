import type { ExpandedField } from '../../../domain/catalogue';
import type { Option } from '../../../domain/catalogue/options';
import { DEFAULT_INPUT_MAX_LENGTH } from '../../../domain/config';

/** The widest a sized input gets, in characters: a line of an address, a name, an e-mail. */
const WIDEST = 35;

/**
 * How many characters an input is sized to (issue 28, after GOV.UK's width classes): what its
 * answer holds, from the catalogue: a ZIP code 10, a year 4, a phone 18, a month its longest name.
 * Null: as wide as the page allows (text areas, choices laid out as radios, lookups, files).
 */
export function inputChars(field: Pick<ExpandedField, 'type' | 'maxLength'>, choices: readonly Option[] = []): number | null {
  switch (field.type) {
    case 'date':
      return 12;
    case 'phone':
      return 18; // '(303) 555-0142' is 14, '+91 98450 67890' 15
    case 'ssn':
      return 11;
    case 'email':
      return WIDEST;
    case 'select':
      // The longest option, and room for the arrow (added in the style).
      return Math.min(WIDEST, Math.max(4, ...choices.map((option) => option.label.length)));
    case 'text':
      return Math.min(WIDEST, Math.max(3, field.maxLength ?? DEFAULT_INPUT_MAX_LENGTH));
    default:
      return null;
  }
}
