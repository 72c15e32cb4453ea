import { expect, it } from 'vitest';
import { addAnotherErrorLabel, PDF_DOWNLOAD_ERROR_LABEL, tabsErrorLabel, uploadErrorLabel } from './labels';

it('has the error labels of spec/platform.md §8 and spec/form.md §8', () => {
  expect(PDF_DOWNLOAD_ERROR_LABEL).toBe('Error downloading PDF copy of your application.');
  expect(uploadErrorLabel('Permanent Resident Card')).toBe('Error uploading file for Permanent Resident Card');
  expect(tabsErrorLabel('Upload')).toBe('Error handling tabs for Upload');
  expect(addAnotherErrorLabel('sibling')).toBe('Error adding another sibling');
});
