import type { components } from '../../../../generated/api';
import type { LookupCategory } from '../../../../domain/catalogue/types';
import { AUTOCOMPLETE } from '../../../../domain/config';
import { api } from '../../../lib/api/client';

export type LookupSuggestion = components['schemas']['LookupSuggestion'];
export type LookupDetail = components['schemas']['LookupDetail'];

/** spec/form.md §8: lookup failures are swallowed; the caller gets an empty list or null. */
export const lookupApi = {
  suggestions: async (category: LookupCategory, text: string, signal?: AbortSignal): Promise<LookupSuggestion[]> => {
    try {
      const { data } = await api.GET('/lookup/find', { params: { query: { category, text, max_results: AUTOCOMPLETE.results } }, signal });
      return Array.isArray(data) ? data : [];
    } catch (error) {
      // A superseded request is cancelled by the query, not failed.
      if (signal?.aborted) throw error;
      return [];
    }
  },
  detail: async (category: LookupCategory, id: string): Promise<LookupDetail | null> => {
    try {
      const { data } = await api.GET('/lookup/find', { params: { query: { category, id } } });
      return data && !Array.isArray(data) ? data : null;
    } catch {
      return null;
    }
  },
};

export const suggestionsQuery = (category: LookupCategory, text: string) => ({
  queryKey: ['lookup', category, text] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => lookupApi.suggestions(category, text, signal),
});
