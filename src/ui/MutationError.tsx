import type { FieldErrors } from '../../domain/rules/collect';

/**
 * A form's banner for a refused or failed call: the message, once, in an alert. When the refusal
 * names fields (`fields`, from `fieldErrorsOf`) the form shows them at their fields and no banner.
 */
export function MutationError({ error, fields }: { error: Error | null; fields?: FieldErrors }) {
  if (!error || (fields && Object.keys(fields).length > 0)) return null;
  return <p role="alert">{error.message}</p>;
}
