import type { components } from '../../../../generated/api';
import { api, dataOf } from '../../../lib/api/client';

export type UploadContentType = components['schemas']['PresignedUrlRequest']['content_type'];

/** POST /api/presigned-url: where and with which signed fields one file may be uploaded. */
export const presignUpload = (answer_key: string, content_type: UploadContentType) =>
  dataOf(api.POST('/api/presigned-url', { body: { answer_key, content_type } }));
