import { describe, expect, it } from 'vitest';
import { checkFile, contentTypeOfName, fileMessages } from './fileRules';
import { DELETE_FILE, UPLOAD_NEEDS_ACCOUNT } from './DocumentField';
import { PDF_DOWNLOAD_ERROR_LABEL, tabsErrorLabel, uploadErrorLabel } from './labels';
import { UPLOAD_IN_PROGRESS } from './TabGroup';

describe('file upload messages (spec/form.md §5 "File upload")', () => {
  it('are the spec texts, word for word', () => {
    expect(fileMessages).toEqual({
      tooLarge: 'Your file is too large. The maximum file size is 1 MB.',
      wrongType: 'You can only enter the following file types: .png, .jpeg, .jpg, .pdf, .docx',
      nameTooLong: 'The name of your file is too long. File name can have a maximum of 32 characters, including the extension.',
      empty: 'Your file is empty. Please upload a non-empty file.',
    });
    expect(UPLOAD_NEEDS_ACCOUNT).toBe('This question can be finished once you have created an account.');
    expect(DELETE_FILE).toEqual({ header: 'Delete File', text: 'Are you sure you want to delete your file?' });
    expect(UPLOAD_IN_PROGRESS).toEqual({ header: 'File Upload in Progress', text: 'Please wait until the file upload has completed.' });
    expect(uploadErrorLabel('Upload a document')).toBe('Error uploading file for Upload a document');
    expect(tabsErrorLabel('Write it here')).toBe('Error handling tabs for Write it here');
    expect(PDF_DOWNLOAD_ERROR_LABEL).toBe('Error downloading PDF copy of your application.');
  });

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
