/**
 * The partner (university) configuration: every screen that shows the university's name,
 * address, phones, help e-mail or links reads it from here. Values are for a fictional university.
 */
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
export function missingConfigValues(config: unknown, prefix = ''): string[] {
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
