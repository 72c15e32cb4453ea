import { ValidationError, type Schema } from 'yup';

export type FieldErrors = Record<string, string[]>;

/**
 * Every message of every field (no early stop), each shown once (spec/platform.md §5,
 * spec/form.md §5). Returns {} when the values are valid.
 */
export function validate(schema: Schema, values: unknown): FieldErrors {
  try {
    schema.validateSync(values, { abortEarly: false });
    return {};
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const out: FieldErrors = {};
    for (const inner of error.inner.length ? error.inner : [error]) {
      const key = inner.path ?? 'form';
      const list = (out[key] ??= []);
      for (const message of inner.errors) if (!list.includes(message)) list.push(message);
    }
    return out;
  }
}
