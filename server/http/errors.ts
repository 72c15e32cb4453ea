import type { FieldErrors } from '../../domain/rules/collect';

/**
 * A refusal the caller can act on (400 with field errors, 403, 429 with Retry-After, …): thrown by
 * any handler, hook or helper, transactions included (a refusal rolls back what the transaction
 * wrote), and answered by the app's error handler in the contract's Error shape; `reply` is for
 * success only (decision 0042). `body` adds what a refusal's own schema holds beyond the Error
 * shape (a save's conflicts).
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details: { errors?: FieldErrors; code?: string; headers?: Record<string, string>; body?: Record<string, unknown> } = {},
  ) {
    super(message);
  }
}
