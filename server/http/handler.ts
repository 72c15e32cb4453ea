import type { FastifyReply, FastifyRequest, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault, RouteHandlerMethod } from 'fastify';
import { SESSION_INVALID_MESSAGE } from '../../domain/messages';
import type { operations } from '../../generated/api';
import { HttpError } from './errors';

/** The operationIds of openapi.yaml: a handler for anything else does not compile. */
export type OperationId = keyof operations;

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : unknown;
type BodyOf<O> = O extends { requestBody?: infer R } ? Json<R> : undefined;
type ParamsOf<O> = O extends { parameters: { path?: infer P } } ? ([P] extends [undefined] ? never : NonNullable<P>) : never;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? ([Q] extends [undefined] ? never : NonNullable<Q>) : never;
type RepliesOf<O> = O extends { responses: infer R } ? { [Status in keyof R]: Json<R[Status]> } : never;

/**
 * What Fastify knows of one operation's request and replies, from the generated contract types.
 * @public exported for the declarations tsc -b writes (server/ is a composite project): a handler's type names it.
 */
export interface RouteOf<Id extends OperationId> {
  Body: BodyOf<operations[Id]>;
  Querystring: QueryOf<operations[Id]>;
  Params: ParamsOf<operations[Id]>;
  Reply: RepliesOf<operations[Id]>;
}

export type TypedRequest<Id extends OperationId> = FastifyRequest<RouteOf<Id>>;
export type TypedReply<Id extends OperationId> = FastifyReply<RouteOf<Id>>;

export type Handler<Id extends OperationId> = RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RouteOf<Id>>;

/** Handlers by operationId, each typed from the contract: body, query, path and every reply. */
export type Handlers = { [Id in OperationId]?: Handler<Id> };

/** The signed-in applicant of an /api call (the session hook has answered 401 to everyone else). */
export interface Session {
  tokenHash: string;
  userId: string;
  username: string;
  expiresAt: Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
    /** A JSON body's text as it came (null for any other body): a save stores it as sent when it may. */
    bodyText: string | null;
  }
}

/**
 * A handler of a signed-in call, given its session. The session hook has already answered 401 to
 * a caller without one; should a route be reached without it all the same, the caller gets 401 too.
 */
export function signedIn<Id extends OperationId>(
  handle: (request: TypedRequest<Id>, reply: TypedReply<Id>, session: Session) => ReturnType<Handler<Id>>,
): Handler<Id> {
  return function (request, reply) {
    const { session } = request;
    if (!session) throw new HttpError(401, SESSION_INVALID_MESSAGE);
    return handle(request, reply, session);
  };
}
