import transliterate from '@sindresorhus/transliterate';
import type { RuleContext } from './rules/conditions';

/**
 * Who an application is from, as the office quotes it: the legal name the applicant answered and
 * the application number. Used by the application document's header, its title and every
 * download's file name, on both halves.
 */

/** The legal first and last name as answered (empty parts left out); '' before either is answered. */
export function legalNameOf(answers: RuleContext): string {
  return [answers.first_name, answers.last_name]
    .map((part) => (typeof part === 'string' ? part.trim() : ''))
    .filter(Boolean)
    .join(' ');
}

/**
 * A file name part from what a person typed: every accented letter folded to its plain one
 * (@sindresorhus/transliterate: José → Jose, Søren → Soren, Weiß → Weiss; Greek and Cyrillic
 * written in Latin letters, scripts without a Latin form, such as 佐藤, kept); everything else
 * (spaces, hyphens, apostrophes, slashes, quotes) one hyphen, so `_` only ever stands between
 * the parts and a name reads back (issue 48). Never empty: `fallback` when nothing is left.
 */
function fileNamePart(text: string, fallback: string): string {
  const part = transliterate(text)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return part || fallback;
}

/**
 * `Lastname_Firstname_<application number>_<what>.pdf` (issue 30): a reader's downloads folder
 * sorts by applicant, and two applicants' files never share a name. `what` names the document
 * ("Application", "Additional Information").
 */
export function downloadFileName(answers: RuleContext, applicationNumber: number | null, what: string): string {
  const text = (key: string) => (typeof answers[key] === 'string' ? (answers[key] as string) : '');
  return [
    fileNamePart(text('last_name'), 'Applicant'),
    fileNamePart(text('first_name'), 'Applicant'),
    applicationNumber === null ? 'unnumbered' : String(applicationNumber),
    fileNamePart(what, 'Document'),
  ].join('_') + '.pdf';
}
