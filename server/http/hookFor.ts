import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * An async hook run only for the requests it concerns. Every other request goes on at once: an
 * async hook that returns at once still costs each request a promise and a turn of the microtask
 * queue, and every request passed five of them (issue 33). `hook` returns the reply when it has
 * answered (Fastify's convention for async hooks): the request then goes no further.
 */
export function hookFor(applies: (request: FastifyRequest) => boolean, hook: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    if (!applies(request)) return done();
    hook(request, reply).then((result) => {
      // Answered: a hook with a callback that replies does not call it.
      if (result !== reply) done();
    }, done);
  };
}
