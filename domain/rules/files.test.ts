import { describe, expect, it } from 'vitest';
import { checkFile, contentTypeOfName } from './files';

/** spec/form.md §5 "File upload", word for word. */
const fileMessages = {
  tooLarge: 'Your file is too large. The maximum file size is 1 MB.',
  wrongType: 'You can only enter the following file types: .png, .jpeg, .jpg, .pdf, .docx',
  nameTooLong: 'The name of your file is too long. File name can have a maximum of 32 characters, including the extension.',
  empty: 'Your file is empty. Please upload a non-empty file.',
};

describe('file upload rules (spec/form.md §5 "File upload")', () => {
  it('accepts a 1 MB file with a 32-character name of each type', () => {
    const name32 = `${'a'.repeat(28)}.pdf`;
    expect(name32).toHaveLength(32);
    for (const name of [name32, 'photo.PNG', 'scan.jpeg', 'scan.jpg', 'essay.docx']) expect(checkFile({ name, size: 1_000_000 })).toEqual([]);
  });

  it.each([
    [{ name: 'big.pdf', size: 1_000_001 }, [fileMessages.tooLarge]],
    [{ name: 'big.pdf', size: 1_100_000 }, [fileMessages.tooLarge]],
    [{ name: 'setup.exe', size: 10 }, [fileMessages.wrongType]],
    [{ name: 'notes.doc', size: 10 }, [fileMessages.wrongType]],
    [{ name: 'no-extension', size: 10 }, [fileMessages.wrongType]],
    [{ name: `${'a'.repeat(29)}.pdf`, size: 10 }, [fileMessages.nameTooLong]],
    [{ name: 'empty.png', size: 0 }, [fileMessages.empty]],
    [{ name: `${'b'.repeat(40)}.gif`, size: 2_000_000 }, [fileMessages.tooLarge, fileMessages.wrongType, fileMessages.nameTooLong]],
  ])('%j → %j', (file, messages) => {
    expect(checkFile(file)).toEqual(messages);
  });

  it('names the content type of each accepted extension, case-insensitively', () => {
    expect(contentTypeOfName('A.JPG')).toBe('image/jpeg');
    expect(contentTypeOfName('a.docx')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(contentTypeOfName('a.pdf.exe')).toBeNull();
  });
});
