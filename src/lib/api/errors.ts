/** The error mapping of spec/platform.md §8: every call's response goes through `errorFromResponse`. */
import { GENERIC_ERROR_MESSAGE, OFFLINE_MESSAGE } from '../../../domain/messages';
import type { FieldErrors } from '../../../domain/rules/collect';

/** Any failed call that is not a 401: its message is safe to show to the applicant. */
export class ServerError extends Error {
  override readonly name = 'ServerError';
  constructor(
    message: string,
    readonly status: number | null,
    readonly fieldErrors?: FieldErrors,
    readonly code?: string,
    /** The whole JSON body, for the calls whose errors say more (a save's conflicts). */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** A 401: the app clears its cache and goes to /login with SESSION_INVALID_MESSAGE. */
export class UnauthorizedError extends Error {
  override readonly name = 'UnauthorizedError';
  readonly status = 401;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fieldErrorsIn(body: Record<string, unknown>): FieldErrors | undefined {
  const { errors } = body;
  if (!isRecord(errors)) return undefined;
  const out: FieldErrors = {};
  for (const [key, list] of Object.entries(errors)) {
    if (Array.isArray(list)) out[key] = list.filter((m): m is string => typeof m === 'string');
  }
  return out;
}

/**
 * Reads a response (without consuming it) and returns the error it stands for, or null when it is
 * a JSON success. Order follows the spec: a body that is not JSON is a server error whatever the
 * status; then 401 is unauthorized; then any other non-OK status is a server error whose message
 * is the body's `message` when that is a string.
 */
export async function errorFromResponse(response: Response): Promise<Error | null> {
  if (response.status === 204) return null;
  let body: unknown;
  try {
    body = JSON.parse(await response.clone().text());
  } catch {
    return new ServerError(GENERIC_ERROR_MESSAGE, response.status);
  }
  if (response.ok) return null;
  const message =
    isRecord(body) && typeof body.message === 'string' && body.message.trim() !== ''
      ? body.message
      : GENERIC_ERROR_MESSAGE;
  if (response.status === 401) return new UnauthorizedError(message);
  const record = isRecord(body) ? body : {};
  return new ServerError(
    message,
    response.status,
    fieldErrorsIn(record),
    typeof record.code === 'string' ? record.code : undefined,
    record,
  );
}

/** A network failure (no response at all) is shown with the generic text too. */
export function errorFromNetworkFailure(): ServerError {
  return new ServerError(OFFLINE_MESSAGE, null);
}

const NO_FIELD_ERRORS: FieldErrors = Object.freeze({}) as FieldErrors;

/**
 * The fields a refusal names, each with its messages; none for anything else (no error, a network
 * failure, a refusal of the whole call). One reading for every form (issue 50), instead of an
 * `instanceof ServerError` at each.
 */
export function fieldErrorsOf(error: unknown): FieldErrors {
  return error instanceof ServerError && error.fieldErrors ? error.fieldErrors : NO_FIELD_ERRORS;
}

/**
 * The body of a refusal with this status, for the few calls whose refusal carries more than a
 * message (a count to confirm); null for anything else.
 */
export function refusalBodyOf(error: unknown, status: number): Record<string, unknown> | null {
  return error instanceof ServerError && error.status === status ? (error.body ?? {}) : null;
}
