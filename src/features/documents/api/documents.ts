import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { components } from '../../../../generated/api';
import { must } from '../../application/api/account';
import { api } from '../../../lib/api/client';
import { errorFromNetworkFailure, errorFromResponse } from '../../../lib/api/errors';

type Schemas = components['schemas'];
export type ConversionStatus = Schemas['ConversionStatus'];
export type DocumentAnswers = Schemas['DocumentAnswers'];
export type ServiceView = Schemas['ServiceView'];
export type PdfStatus = Schemas['PdfStatus'];
export type UploadContentType = Schemas['PresignedUrlRequest']['content_type'];

const path = (key: string) => ({ params: { path: { key } } });

export const documentsApi = {
  presign: async (answer_key: string, content_type: UploadContentType) =>
    must((await api.POST('/api/presigned-url', { body: { answer_key, content_type } })).data),
  /** The POST to the presigned target: the embedded /upload or an S3 bucket, fields first, then the file. */
  upload: async (post: Schemas['PresignedPost'], file: File) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(post.fields)) form.append(name, value);
    form.append('file', file);
    let response: Response;
    try {
      response = await fetch(post.url, { method: 'POST', body: form, credentials: 'same-origin' });
    } catch {
      throw errorFromNetworkFailure();
    }
    const error = response.ok ? null : await errorFromResponse(response);
    if (error) throw error;
  },
  startConversion: async (key: string, file_key: string, file_name: string) =>
    must((await api.POST('/api/pdf/document-answer/{key}', { ...path(key), body: { file_key, file_name } })).data),
  conversion: async (key: string) => must((await api.GET('/api/pdf/document-answer/{key}', path(key))).data),
  deleteConversion: async (key: string) => must((await api.DELETE('/api/pdf/document-answer/{key}', path(key))).data),
  deleteDocument: async (key: string) => must((await api.DELETE('/api/document-answer/{key}', path(key))).data),
  pdfCopy: async () => must((await api.GET('/api/pdf')).data),
  serviceView: async (service_token: string) => must((await api.GET('/service/tmp-pdf', { params: { query: { service_token } } })).data),
};

export const documentAnswersQuery = queryOptions({
  queryKey: ['document-answers'],
  queryFn: async () => must((await api.GET('/api/document-answer')).data),
});

export const conversionQueryKey = (key: string) => ['conversion', key] as const;

/** Reads the conversion status of `keys` and the uploaded-documents list again. */
export const refreshDocumentQueries = (queryClient: QueryClient, keys: string[]) =>
  Promise.all([...keys.map(conversionQueryKey), documentAnswersQuery.queryKey].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
