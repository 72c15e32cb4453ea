import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { setPhoneLibrary } from '../../domain/rules/formats';

/** The server checks and shows numbers from abroad with every country's plan from the start. */
export function loadPhoneLibrary(): void {
  setPhoneLibrary({
    isValid: (e164) => isValidPhoneNumber(e164),
    format: (e164) => parsePhoneNumberFromString(e164)?.formatInternational() ?? e164,
  });
}
