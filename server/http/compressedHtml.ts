import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * A page's HTML as the browser takes it (issue 33): brotli, else gzip, else as it is. A drawn
 * /about is 33–36 kB and 8 kB compressed: on a slow phone network that is a quarter of a second.
 * Brotli at quality 5 costs about a millisecond for such a page, on libuv's threads, not the event
 * loop. Pages built ahead are the same few strings: each is compressed once and kept.
 */
export async function sendHtml(request: FastifyRequest, reply: FastifyReply, html: string, options: { keep: boolean }): Promise<FastifyReply> {
  reply.type('text/html; charset=utf-8').header('vary', 'accept-encoding');
  const encoding = negotiate(String(request.headers['accept-encoding'] ?? ''), ['br', 'gzip']) as 'br' | 'gzip' | null;
  if (!encoding) return reply.send(html);
  const key = `${encoding}:${html}`;
  let body = options.keep ? kept.get(key) : undefined;
  if (!body) {
    body = encoding === 'br' ? await brotli(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: html.length } }) : await gzipped(html);
    if (options.keep && kept.size < KEPT_PAGES_MAX) kept.set(key, body);
  }
  return reply.header('content-encoding', encoding).send(body);
}

/** Pages built ahead, compressed: a few per encoding (the prerendered pages and index.html). */
const kept = new Map<string, Buffer>();
const KEPT_PAGES_MAX = 200;
