import { fileMessages } from '../../domain/messages';
import type { Handler } from '../http/handler';
import { realContentType } from '../files/convert';
import { verifyLocalPolicy } from '../infra/uploadPolicy';
import type { Storage } from '../infra/storage';
import { HttpError } from '../http/errors';

const uploadMessages = {
  notMultipart: 'The upload must be sent as multipart/form-data.',
  noFile: 'No file was sent.',
  notHere: 'Uploads go to the storage bucket, not to this server.',
  oneFile: 'Send one file per upload.',
  unreadable: 'The upload could not be read. Please choose the file and try again.',
} as const;

/**
 * The embedded storage's upload target, standing in for an S3 bucket: the signed policy authorises
 * the upload (not the session); the size is limited while reading, and the real type is read from
 * the file's bytes.
 */
export function uploadHandler(storage: Storage, secret: string): Handler<'uploadDocument'> {
  return async (request, reply) => {
    if (storage.kind !== 'local') throw new HttpError(404, uploadMessages.notHere);
    if (!request.isMultipart()) throw new HttpError(400, uploadMessages.notMultipart);
    const fields: Record<string, string> = {};
    // The file is kept until the whole body has been read: a second file refuses the upload
    // (nothing is stored), rather than the first being kept and the rest dropped unseen.
    let received: { bytes: Buffer; key: string; contentType: string } | null = null;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          fields[part.fieldname] = String(part.value);
          continue;
        }
        if (received) {
          part.file.resume();
          throw new HttpError(400, uploadMessages.oneFile);
        }
        // As with S3, the fields come before the file; fields after it are not part of the policy.
        const check = verifyLocalPolicy(fields, secret);
        if (!check.ok) {
          part.file.resume();
          throw new HttpError(check.status, check.message);
        }
        const bytes = await part.toBuffer();
        if (bytes.length === 0) throw new HttpError(400, fileMessages.empty);
        if (bytes.length > check.maxBytes) throw new HttpError(413, fileMessages.tooLarge);
        if ((await realContentType(bytes)) !== check.contentType) throw new HttpError(415, fileMessages.wrongType);
        received = { bytes, key: check.key, contentType: check.contentType };
      }
    } catch (error) {
      if (error instanceof HttpError) throw error;
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, fileMessages.tooLarge);
      if (code === 'FST_FILES_LIMIT') throw new HttpError(400, uploadMessages.oneFile);
      // Anything else here is a body the multipart reader could not take apart (a cut-off part, a
      // wrong boundary): the sender's fault, logged in case it is not.
      request.log.warn(error, 'unreadable upload');
      throw new HttpError(400, uploadMessages.unreadable);
    }
    if (!received) throw new HttpError(400, uploadMessages.noFile);
    await storage.put(received.key, received.bytes, received.contentType);
    return reply.code(204).send();
  };
}
