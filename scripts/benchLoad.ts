/**
 * The load generator of `npm run bench` (issue 33), in a process of its own, started once before
 * any figure is taken (a Node process starting is half a second of a core): in the bench's own
 * process it took a core's share from the server it measured and capped the floors. On each
 * message it runs autocannon for the seconds asked and answers its figures.
 */
import autocannon from 'autocannon';

export interface LoadAsk {
  url: string;
  connections: number;
  seconds: number;
  /** A steady rate over all connections (saves a second), instead of as fast as answered. */
  overallRate?: number;
  method?: 'GET' | 'PUT';
  body?: string;
  /** Each connection's headers, by connection number (taken in turn). */
  headers: Record<string, string>[];
  /**
   * Saves as a page makes them (issue 28): each sends the answers' revision its last save was told,
   * by cookie; the starting ones given here.
   */
  revisions?: Record<string, number>;
}

export interface LoadResult {
  perSecond: number;
  total: number;
  p99: number;
  /** The latencies below the p99 (ms), to tell a slow tail from a slow whole. */
  p50: number;
  p90: number;
  non2xx: number;
  errors: number;
}

function run(ask: LoadAsk): Promise<LoadResult> {
  let connection = 0;
  const revisions = ask.revisions ? new Map(Object.entries(ask.revisions)) : null;
  return autocannon({
    url: ask.url,
    connections: ask.connections,
    duration: ask.seconds,
    ...(ask.overallRate ? { overallRate: ask.overallRate } : {}),
    method: ask.method ?? 'GET',
    ...(ask.body ? { body: ask.body } : {}),
    setupClient: (client) => client.setHeaders(ask.headers[connection++ % ask.headers.length]!),
    ...(revisions
      ? {
          requests: [
            {
              // The first request of a connection comes before its headers are set: it is sent without.
              setupRequest: (request: { headers?: Record<string, string> }, context: { cookie?: string }) => {
                const cookie = request.headers?.cookie ?? '';
                if (!revisions.has(cookie)) return request;
                context.cookie = cookie;
                return { ...request, headers: { ...request.headers, 'x-answers-base': `_rev=${revisions.get(cookie) ?? 0}` } };
              },
              onResponse: (_status: number, body: string, context: { cookie?: string }) => {
                const revision = (JSON.parse(body) as { revision?: number }).revision;
                if (context.cookie !== undefined && revision !== undefined) revisions.set(context.cookie, revision);
              },
            },
          ] as unknown as autocannon.Request[], // its types take the request as the library builds it; these read only its headers
        }
      : {}),
  }).then((result) => ({ perSecond: result.requests.average, total: result.requests.total, p99: result.latency.p99, p50: result.latency.p50, p90: result.latency.p90, non2xx: result.non2xx, errors: result.errors }));
}

process.on('message', (ask: LoadAsk) => {
  void run(ask).then(
    (result) => process.send!(result),
    (error: unknown) => process.send!({ failed: String(error) }),
  );
});
process.send!({ ready: true });
