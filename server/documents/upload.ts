import { fileMessages } from '../../domain/messages';
import type { Handler } from '../http/handler';
import { realContentType } from './convert';
import { verifyLocalPolicy } from './policy';
import type { Storage } from './storage';

const uploadMessages = {
  notMultipart: 'The upload must be sent as multipart/form-data.',
  noFile: 'No file was sent.',
  notHere: 'Uploads go to the storage bucket, not to this server.',
} as const;

/**
 * The embedded storage's upload target, standing in for an S3 bucket: the signed policy authorises
 * the upload (not the session); the size is limited while reading, and the real type is read from
 * the file's bytes.
 */
export function uploadHandler(storage: Storage, secret: string): Handler<'uploadDocument'> {
  return async (request, reply) => {
    if (storage.kind !== 'local') return reply.code(404).send({ message: uploadMessages.notHere });
    if (!request.isMultipart()) return reply.code(400).send({ message: uploadMessages.notMultipart });
    const fields: Record<string, string> = {};
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      // As with S3, the fields come before the file; fields after it are not part of the policy.
      const check = verifyLocalPolicy(fields, secret);
      if (!check.ok) {
        part.file.resume();
        return reply.code(check.status).send({ message: check.message });
      }
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') return reply.code(413).send({ message: fileMessages.tooLarge });
        throw error;
      }
      if (bytes.length === 0) return reply.code(400).send({ message: fileMessages.empty });
      if (bytes.length > check.maxBytes) return reply.code(413).send({ message: fileMessages.tooLarge });
      if ((await realContentType(bytes)) !== check.contentType) return reply.code(415).send({ message: fileMessages.wrongType });
      await storage.put(check.key, bytes, check.contentType);
      return reply.code(204).send();
    }
    return reply.code(400).send({ message: uploadMessages.noFile });
  };
}
