import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** What a request refused before it is read says: the contract's Error, never Fastify's own shape (issue 49, item 14). */
const clientErrorMessages = {
  headersTooLarge: 'The request’s headers are larger than the portal reads. Reload the page and try again.',
  timeout: 'The request took too long to arrive. Please try again.',
  unreadable: 'The request could not be read.',
} as const;

/**
 * Answers a request Node's HTTP parser refused before Fastify saw it (headers over the limit, a
 * request too slow, bytes that are not HTTP) with the contract's Error body, as Fastify's default
 * does with a body of its own shape. A reset connection gets nothing.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW' ? [431, clientErrorMessages.headersTooLarge] : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, clientErrorMessages.timeout] : [400, clientErrorMessages.unreadable];
  const body = JSON.stringify({ message });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
