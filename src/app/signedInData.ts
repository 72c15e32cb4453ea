import type { QueryClient } from '@tanstack/react-query';
import type { components } from '../../generated/api';
import { profileQuery } from '../lib/api/profile';
import { addAnotherQuery } from '../features/application/api/addAnother';
import { tabsQuery } from '../features/documents/api/tabs';

/**
 * What a signed-in form page needs before its first render, as the API answers it: sent with a page
 * the server has drawn (the id of its JSON block below), so the browser's first render is the
 * server's.
 */
export interface SignedInData {
  profile: components['schemas']['Profile'];
  addAnother: components['schemas']['AddAnotherState'];
  tabs: components['schemas']['TabState'];
}

export const pageDataId = 'portal-page-data';

export function seedSignedInData(queryClient: QueryClient, data: SignedInData): void {
  queryClient.setQueryData(profileQuery.queryKey, data.profile);
  queryClient.setQueryData(addAnotherQuery.queryKey, data.addAnother);
  queryClient.setQueryData(tabsQuery.queryKey, data.tabs);
}
