import { memo } from 'react';
import { partnerConfig } from '../../domain/config';

/**
 * The logo line of every header (spec/platform.md §2 "a logo-only header"): the partner's crest,
 * drawn from its initial so no image has to load, and the application's title. Memoised: it has no
 * props, and the form's header around it is drawn again on each key typed.
 */
export const SiteTitle = memo(function SiteTitle() {
  return (
    <p className="site-header__title">
      <svg className="site-header__logo" viewBox="0 0 32 36" width="28" height="32" aria-hidden="true" focusable="false">
        <path d="M16 1 L31 6 V17 C31 26 24 32 16 35 C8 32 1 26 1 17 V6 Z" fill="currentColor" />
        <text x="16" y="23" textAnchor="middle" fontSize="16" fontWeight="700" fontFamily="Georgia, serif" className="site-header__logo-letter">
          {partnerConfig.name.charAt(0)}
        </text>
      </svg>
      <span>{partnerConfig.applicationTitle}</span>
    </p>
  );
});
