/** The file rules of spec/form.md §5 "File upload"; the client checks first and the server again. */
import { MAX_FILE_BYTES, MAX_FILE_NAME_LENGTH } from '../config';
import { fileMessages } from '../messages';

export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The content types an upload may have (the contract's UploadContentType). */
type UploadContentType = 'image/png' | 'image/jpeg' | 'application/pdf' | typeof DOCX_TYPE;

/** The content type each accepted extension names. */
const contentTypeByExtension: Record<string, UploadContentType> = {
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
export function contentTypeOfName(name: string): UploadContentType | null {
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
