import { describe, expect, it } from 'vitest';
import { downloadFileName, legalNameOf } from './applicant';

describe('legalNameOf', () => {
  it.each([
    [{ first_name: 'Jordan', last_name: 'Rivera' }, 'Jordan Rivera'],
    [{ first_name: '  Jordan ', last_name: '' }, 'Jordan'],
    [{ last_name: 'Rivera' }, 'Rivera'],
    [{}, ''],
    [{ first_name: true, last_name: 3 }, ''],
  ])('%j → %s', (answers, name) => expect(legalNameOf(answers)).toBe(name));
});

describe('downloadFileName', () => {
  it('is Lastname_Firstname_<number>_<what>.pdf', () => {
    expect(downloadFileName({ first_name: 'Jordan', last_name: 'Rivera' }, 100042, 'Application')).toBe('Rivera_Jordan_100042_Application.pdf');
    expect(downloadFileName({ first_name: 'Jordan', last_name: 'Rivera' }, 100042, 'Additional Information')).toBe(
      'Rivera_Jordan_100042_Additional-Information.pdf',
    );
  });

  it('folds accents, keeps other scripts, and leaves nothing a file system or a header could misread', () => {
    expect(downloadFileName({ first_name: 'José', last_name: 'Núñez-García' }, 7, 'Application')).toBe('Nunez-Garcia_Jose_7_Application.pdf');
    expect(downloadFileName({ first_name: '美咲', last_name: '佐藤' }, 7, 'Application')).toBe('佐藤_美咲_7_Application.pdf');
    expect(downloadFileName({ first_name: 'a/../b', last_name: '"x";\r\ny' }, 7, 'Application')).toBe('x-y_a-b_7_Application.pdf');
  });

  // Issue 48: 'Okafor_Lindqvist_Maya_…' could not be read back (which part is the last name?), and ø stayed.
  it('keeps a hyphen, an apostrophe and a space inside a name as -, _ only between the parts, and folds every accent', () => {
    expect(downloadFileName({ first_name: 'Maya', last_name: 'Okafor-Lindqvist' }, 7, 'Application')).toBe('Okafor-Lindqvist_Maya_7_Application.pdf');
    expect(downloadFileName({ first_name: 'Mary Kate', last_name: "O'Brien" }, 7, 'Application')).toBe('O-Brien_Mary-Kate_7_Application.pdf');
    expect(downloadFileName({ first_name: 'Søren', last_name: 'Østergård' }, 7, 'Application')).toBe('Ostergard_Soren_7_Application.pdf');
    expect(downloadFileName({ first_name: 'Łukasz', last_name: 'Weiß' }, 7, 'Application')).toBe('Weiss_Lukasz_7_Application.pdf');
  });

  it('names an applicant who has not answered a name, and an application without a number', () => {
    expect(downloadFileName({}, null, 'Application')).toBe('Applicant_Applicant_unnumbered_Application.pdf');
    expect(downloadFileName({ first_name: '!!!', last_name: '' }, 1, '')).toBe('Applicant_Applicant_1_Document.pdf');
  });
});
