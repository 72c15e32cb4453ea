import { describe, expect, it } from 'vitest';
import { correctionErrors, correctionMessages } from './corrections';

describe('a correction of a submitted answer (issue 32)', () => {
  it.each<[string, string | number | boolean | null, string, Record<string, string[]>]>([
    ['birth_date', '2008-04-14', 'Applicant wrote in.', {}],
    ['entry_term', 'Fall 2028', 'Asked by e-mail.', {}],
    ['first_name', null, 'A duplicate field.', {}],
    ['entry_term', 'Summer 2031', 'Asked.', { value: ['This answer is not one of the choices.'] }],
    ['birth_date', '2008-04-14', '   ', { reason: ['Say why the answer is corrected: the applicant’s request, a document that shows it.'] }],
    ['birth_date', '2008-04-14', 'x'.repeat(501), { reason: ['The reason must be 500 characters or fewer.'] }],
    ['additional_info_doc', 'x.pdf', 'Asked.', { key: ['This question cannot be corrected here: a document is replaced through the checklist, and a choice’s label follows its choice.'] }],
    ['entry_term_desc', 'Fall 2028', 'Asked.', { key: [correctionMessages.notCorrectable] }],
    ['shoe_size', '9', 'Asked.', { key: [correctionMessages.notCorrectable] }],
  ])('%s = %j because %j', (key, value, reason, errors) => {
    expect(correctionErrors(key, value, reason)).toEqual(errors);
  });

  it('says the refusals of the state word for word', () => {
    expect(correctionMessages.notSubmitted).toBe('Only a submitted application is corrected by the office; until then the applicant changes their own answers.');
    expect(correctionMessages.unchanged).toBe('The answer is already this.');
    expect(correctionMessages.waiverBound).toBe('Recommenders were asked under this waiver and told the applicant will not read their letters: it cannot be taken back.');
  });
});
