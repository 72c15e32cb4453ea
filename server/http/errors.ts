import type { FieldErrors } from '../../domain/rules/collect';

/**
 * A refusal the caller can act on (400 with field errors, 403, 429 with Retry-After, …): thrown by
 * any handler or helper, answered by the app's error handler in the contract's Error shape.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details: { errors?: FieldErrors; code?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}
