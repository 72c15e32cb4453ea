/**
 * The load generator of scripts/benchDrawn.ts, in a process of its own, started once before any
 * figure is taken (a Node process starting is half a second of a core): on each message it
 * reloads the page on 10 connections for the seconds asked, and answers autocannon's result.
 */
import autocannon from 'autocannon';

process.on('message', (ask: { url: string; cookie: string; seconds: number }) => {
  void autocannon({ url: ask.url, connections: 10, duration: ask.seconds, headers: { cookie: ask.cookie } }).then(
    (result) => process.send!({ non2xx: result.non2xx, errors: result.errors, perSecond: result.requests.average }),
    (error: unknown) => process.send!({ failed: String(error) }),
  );
});
process.send!({ ready: true });
