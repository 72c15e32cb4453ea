/** Business constants of spec/platform.md §9 and spec/form.md §9, in one place. */
export const INACTIVITY_TIMEOUT_MS = 900_000;
export const INACTIVITY_WARNING_MS = 60_000;
export const PASSWORD_MIN_LENGTH = 12;
export const CONFIRMATION_CODE_LENGTH = 6;
export const DEFAULT_INPUT_MAX_LENGTH = 45;
export const DEFAULT_TEXTAREA_MAX_LENGTH = 1500;
export const SUCCESS_TOAST_MS = 5_000;
export const ERROR_TOAST_MS = 300_000;
export const CONVERSION_POLL_MS = 2_000;
export const PDF_POLL_FIRST_MS = 1_000;
export const PDF_POLL_AFTER_MS = 600_000;
export const WEB_STATUS_POST_RETRIES = 2;
export const SWIPE_THRESHOLD = 50;
export const BREAKPOINTS = { mobile: 600, tablet: 900 } as const;
/** Add-another: groups shown by default, and the most any button may show. */
export const DEFAULT_NUMBER_OF_COMPONENTS = 1;
export const MAX_NUMBER_OF_COMPONENTS = 10;
export const MAX_FILE_BYTES = 1_000_000;
export const MAX_FILE_NAME_LENGTH = 32;
export const AUTOCOMPLETE = { results: 5, debounceMs: 200, maxWaitMs: 500 } as const;
export const DROPDOWN = { pageSize: 5, maxMenuHeight: 300, minMenuHeight: 140, typeAheadResetMs: 1_000 } as const;
/** The identity-provider prefix of the readable cookie the client reads for "logged in". */
export const IDENTITY_COOKIE_PREFIX = 'portal-idp.';
