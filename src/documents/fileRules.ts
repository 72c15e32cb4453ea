import { MAX_FILE_BYTES, MAX_FILE_NAME_LENGTH } from '../config/constants';

/** spec/form.md §5 "File upload", word for word; the client checks first and the server again. */
export const fileMessages = {
  tooLarge: 'Your file is too large. The maximum file size is 1 MB.',
  wrongType: 'You can only enter the following file types: .png, .jpeg, .jpg, .pdf, .docx',
  nameTooLong: 'The name of your file is too long. File name can have a maximum of 32 characters, including the extension.',
  empty: 'Your file is empty. Please upload a non-empty file.',
} as const;

/** The default when a conversion fails without a message of its own (server and client). */
export const CONVERSION_FAILED_MESSAGE = 'We could not convert your file to PDF. Please try again or upload another file.';

export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The content type each accepted extension names. */
export const contentTypeByExtension: Record<string, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  pdf: 'application/pdf',
  docx: DOCX_TYPE,
};

export const ACCEPT_ATTRIBUTE = Object.keys(contentTypeByExtension)
  .map((extension) => `.${extension}`)
  .join(',');

/** The content type the file name's extension names, or null for any other extension. */
export function contentTypeOfName(name: string): string | null {
  const extension = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  return (extension && contentTypeByExtension[extension]) || null;
}

/** Every message that applies to a chosen file (all of them, as every field's messages are). */
export function checkFile(file: { name: string; size: number }): string[] {
  const messages: string[] = [];
  if (file.size > MAX_FILE_BYTES) messages.push(fileMessages.tooLarge);
  if (!contentTypeOfName(file.name)) messages.push(fileMessages.wrongType);
  if (file.name.length > MAX_FILE_NAME_LENGTH) messages.push(fileMessages.nameTooLong);
  if (file.size === 0) messages.push(fileMessages.empty);
  return messages;
}
