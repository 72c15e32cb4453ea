import { describe, expect, it } from 'vitest';
import { signedIn, type Handlers } from './handler';

describe('typed handlers', () => {
  it('a signed-in handler reached without a session answers 401 and does not run', async () => {
    let ran = false;
    const handler = signedIn<'getTabs'>(async (_request, reply) => {
      ran = true;
      return reply.code(200).send({});
    });
    // Only the session matters here: the hook that sets it did not.
    expect(() => handler.call(undefined as never, { session: null } as never, {} as never)).toThrow(
      expect.objectContaining({ statusCode: 401, message: 'Your session is invalid. Please clear your cookies and login again.' }),
    );
    expect(ran).toBe(false);
  });
});

// What `tsc -p server` refuses: each `@ts-expect-error` fails the type-check the day its line compiles.
export const typeChecks = [
  {
    // @ts-expect-error -- not an operationId of openapi.yaml
    getProfiles: async () => undefined,
  } satisfies Handlers,
  {
    getDocumentConversion: async (_request, reply) =>
      // @ts-expect-error -- the contract's 404 is an Error ({ message }), not a status
      reply.code(404).send({ status: 'completed' }),
  } satisfies Handlers,
  {
    putAnswer: async (request, reply) => {
      // @ts-expect-error -- the body is the contract's StudentAnswers, not a string
      const body: string = request.body;
      return reply.code(200).send({ message: body });
    },
  } satisfies Handlers,
  {
    // @ts-expect-error -- 418 is no reply of this operation in the contract
    getTabs: async (_request, reply) => reply.code(418).send({ message: 'teapot' }),
  } satisfies Handlers,
];
