import { describe, expect, it } from 'vitest';
import { checkPartnerConfig, MISSING_CONFIGURATION, partnerConfig, type PartnerConfig } from './config';

describe('partner configuration', () => {
  it('is complete and has the spec character limit', () => {
    expect(() => checkPartnerConfig(partnerConfig, true)).not.toThrow();
    expect(partnerConfig.character_limit).toBe(7000);
  });

  it("throws 'WARNING- MISSING CONFIGURATION' in local development when a value is missing", () => {
    const broken: PartnerConfig = { ...partnerConfig, helpEmail: '', phones: { ...partnerConfig.phones, admissions: '' } };
    expect(MISSING_CONFIGURATION).toBe('WARNING- MISSING CONFIGURATION');
    expect(() => checkPartnerConfig(broken, true)).toThrow(
      'WARNING- MISSING CONFIGURATION: phones.admissions, helpEmail',
    );
  });

  it('does not throw outside local development', () => {
    expect(() => checkPartnerConfig({ ...partnerConfig, helpEmail: '' }, false)).not.toThrow();
  });
});
