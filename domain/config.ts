/**
 * The partner (university) configuration and the business constants of spec/platform.md §9 and
 * spec/form.md §9: every screen and every handler reads them from here.
 */
export const INACTIVITY_TIMEOUT_MS = 900_000;
export const INACTIVITY_WARNING_MS = 60_000;
/** Activity in the page reaches the server as a keep-alive at most this often. */
export const KEEPALIVE_THROTTLE_MS = 60_000;
/**
 * The server keeps an idle session this much longer than the page's 15 minutes: its last call can
 * lag the last activity by up to a keep-alive interval, and the server must never end a session
 * the page still shows as active.
 */
export const SESSION_GRACE_MS = 2 * KEEPALIVE_THROTTLE_MS;
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
/** Add-another: groups shown by default, and the most any button may show. */
export const DEFAULT_NUMBER_OF_COMPONENTS = 1;
export const MAX_NUMBER_OF_COMPONENTS = 10;
export const MAX_FILE_BYTES = 1_000_000;
export const MAX_FILE_NAME_LENGTH = 32;
/** Applicants are 13 to 100 years old (spec/form.md §9). */
export const MIN_AGE = 13;
export const MAX_AGE = 100;
/** The stored placeholder of an answered document, and of a month whose year is not asked (spec/form.md §4, §5). */
export const ANSWERED = 'ANSWERED';
export const AUTOCOMPLETE = { results: 5, debounceMs: 200, maxWaitMs: 500 } as const;
/** The identity-provider prefix of the readable cookie the client reads for "logged in". */
export const IDENTITY_COOKIE_PREFIX = 'portal-idp.';

/** The partner configuration. Values are for a fictional university. */
export interface PartnerConfig {
  name: string;
  applicationTitle: string;
  address: { officeName: string; lines: string[] };
  phones: { admissions: string; technicalHelp: string };
  helpEmail: string;
  links: { website: string; privacyPolicy: string; adobeReader: string };
  /** Text-area limit of the partner (spec/form.md §9). */
  character_limit: number;
  /** The date banner shows between these ISO dates (spec/form.md §2). */
  dateBanner: { start: string; end: string; text: string };
}

export const MISSING_CONFIGURATION = 'WARNING- MISSING CONFIGURATION';

export const partnerConfig: PartnerConfig = {
  name: 'Northfield University',
  applicationTitle: 'Northfield University Undergraduate Application',
  address: {
    officeName: 'Office of Admissions',
    lines: ['Northfield University', '1200 College Avenue', 'Denver, CO 80204'],
  },
  phones: { admissions: '(303) 555-0100', technicalHelp: '(303) 555-0199' },
  helpEmail: 'apply-help@northfield.example.edu',
  links: {
    website: 'https://www.northfield.example.edu',
    privacyPolicy: 'https://www.northfield.example.edu/privacy',
    adobeReader: 'https://get.adobe.com/reader/',
  },
  character_limit: 7000,
  dateBanner: {
    start: '2026-11-01',
    end: '2027-01-15',
    text: 'Apply by January 15 for priority scholarship consideration.',
  },
};

/**
 * Every missing or empty value of a configuration, as dotted paths.
 */
function missingConfigValues(config: unknown, prefix = ''): string[] {
  if (config === undefined || config === null || config === '') return [prefix || '(root)'];
  if (Array.isArray(config)) {
    return config.length === 0 ? [prefix] : config.flatMap((item, i) => missingConfigValues(item, `${prefix}[${i}]`));
  }
  if (typeof config === 'object') {
    return Object.entries(config).flatMap(([key, value]) => missingConfigValues(value, prefix ? `${prefix}.${key}` : key));
  }
  return [];
}

/** Local development only (spec/platform.md §8): a missing value throws so it is seen at once. */
export function checkPartnerConfig(config: PartnerConfig, isLocalDevelopment: boolean): void {
  const missing = missingConfigValues(config);
  if (isLocalDevelopment && missing.length > 0) {
    throw new Error(`${MISSING_CONFIGURATION}: ${missing.join(', ')}`);
  }
}
