import type { components } from '../../../../generated/api';
import { api, $api, dataOf } from '../../../lib/api/client';

export type ConversionStatus = components['schemas']['ConversionStatus'];

const path = (key: string) => ({ params: { path: { key } } });

/** GET /api/pdf/document-answer/{key}: the conversion status of one question's file. */
export const conversionQuery = (key: string) => $api.queryOptions('get', '/api/pdf/document-answer/{key}', path(key));

/** POST /api/pdf/document-answer/{key}: converts the uploaded file to PDF. */
export const startConversion = (key: string, file_key: string, file_name: string) =>
  dataOf(api.POST('/api/pdf/document-answer/{key}', { ...path(key), body: { file_key, file_name } }));

/** DELETE /api/pdf/document-answer/{key}. */
export const deleteConversion = (key: string) => dataOf(api.DELETE('/api/pdf/document-answer/{key}', path(key)));
