/** Labels of the document and PDF-copy errors (spec/platform.md §8, spec/form.md §8). */
export const PDF_DOWNLOAD_ERROR_LABEL = 'Error downloading PDF copy of your application.';
export const uploadErrorLabel = (field: string) => `Error uploading file for ${field}`;
export const tabsErrorLabel = (tab: string) => `Error handling tabs for ${tab}`;
