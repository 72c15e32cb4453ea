import type { FastifyReply } from 'fastify';
import { create as contentDisposition } from 'content-disposition';

/**
 * A PDF sent as a download under its file name: the name as typed in `filename*` (RFC 8187, so
 * 佐藤 stays 佐藤), with an ASCII stand-in for old clients; never cached on the way.
 */
export function sendPdfDownload(reply: FastifyReply, bytes: Uint8Array, fileName: string, type: 'attachment' | 'inline' = 'attachment') {
  return reply
    .type('application/pdf')
    .header('content-disposition', contentDisposition(fileName, { type, fallback: fileName.replace(/[^\x20-\x7e]/g, '_') }))
    .header('cache-control', 'private, no-store')
    .code(200)
    .send(bytes);
}
