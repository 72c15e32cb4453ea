/** The one validation runner of both halves (spec/platform.md §5, spec/form.md §5). */
export type FieldErrors = Record<string, string[]>;

/** A message when the values are wrong for this rule, otherwise null. */
export type Check<T> = (values: T) => string | null;

/** Rules by field; a field may have several, in the order their messages show. */
export type Checks<T> = ReadonlyArray<readonly [field: string, check: Check<T>]>;

/**
 * Every message of every field (no early stop), each once, fields in the order of `checks`.
 * Returns {} when the values are valid.
 */
export function collectErrors<T>(checks: Checks<T>, values: T): FieldErrors {
  const out: FieldErrors = {};
  for (const [field, check] of checks) {
    const message = check(values);
    if (message === null) continue;
    const list = (out[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return out;
}
