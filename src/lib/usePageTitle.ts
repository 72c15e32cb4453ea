import { useEffect } from 'react';
import { partnerConfig } from '../../domain/config';

/** Each screen names itself first in the window title, then the application. */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = `${title} | ${partnerConfig.applicationTitle}`;
  }, [title]);
}
