import type { QueryClient } from '@tanstack/react-query';
import { api, $api, dataOf } from '../../../lib/api/client';
import { conversionQuery } from './conversion';

/** GET /api/document-answer: the uploaded documents by question, with name and size. */
export const documentAnswersQuery = $api.queryOptions('get', '/api/document-answer');

/** DELETE /api/document-answer/{key}: the question's file, original and PDF. */
export const deleteDocument = (key: string) => dataOf(api.DELETE('/api/document-answer/{key}', { params: { path: { key } } }));

/** What a change to the documents of `keys` implies: their conversion status and the list are read again. */
export const refreshDocumentQueries = (queryClient: QueryClient, keys: string[]) =>
  Promise.all([...keys.map((key) => conversionQuery(key).queryKey), documentAnswersQuery.queryKey].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
