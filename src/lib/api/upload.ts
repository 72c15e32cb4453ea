import type { components } from '../../../generated/api';
import { errorFromNetworkFailure, errorFromResponse } from './errors';

/**
 * The POST to the presigned target: the embedded /upload or an S3 bucket, fields first, then the
 * file. Not an operation of the portal's client (its URL is the bucket's), but its answers go
 * through the same error mapping.
 */
export async function uploadFile(post: components['schemas']['PresignedPost'], file: File): Promise<void> {
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
}
