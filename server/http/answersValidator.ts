import AjvCompiler from '@fastify/ajv-compiler';

type BuildCompiler = ReturnType<typeof AjvCompiler>;
type FlatMapBounds = { maxKeys: number; key: RegExp; keyMax: number; valueMax: number };
type Schema = Record<string, unknown>;
/** What a compiled validator is to Fastify: true, or false with its `errors`. */
type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/**
 * The contract's flat map of answers (StudentAnswers), as the bounds a fast check reads from it:
 * the most keys; each key's pattern and length; each value a string no longer than the bound,
 * or a yes/no mark, a number or null. Null when the schema is not that shape: it is then left to
 * the validator as it is.
 */
export function flatMapBounds(schema: Schema): FlatMapBounds | null {
  const keys = schema.propertyNames as Schema | undefined;
  const values = schema.additionalProperties as Schema | undefined;
  const types = values?.type;
  if (schema.type !== 'object' || schema.properties || !keys || !values || typeof keys.pattern !== 'string' || typeof keys.maxLength !== 'number') return null;
  if (typeof values.maxLength !== 'number' || !Array.isArray(types) || [...types].sort().join() !== 'boolean,null,number,string') return null;
  if (Object.keys(values).some((k) => !['type', 'maxLength', 'description'].includes(k))) return null;
  return { maxKeys: typeof schema.maxProperties === 'number' ? schema.maxProperties : Infinity, key: new RegExp(keys.pattern, 'u'), keyMax: keys.maxLength, valueMax: values.maxLength };
}

/**
 * A body of answers the bounds plainly allow, checked in one pass: no key or value near a bound
 * that the general validator counts another way (it counts characters by code point: a text no
 * longer than the bound in UTF-16 units is within it). False means "not plainly": the general
 * validator decides, and gives the messages.
 */
export function plainlyWithin(bounds: FlatMapBounds, body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  let count = 0;
  for (const key in body) {
    if (++count > bounds.maxKeys || key.length > bounds.keyMax || !bounds.key.test(key)) return false;
    const value = (body as Record<string, unknown>)[key];
    if (typeof value === 'string') {
      if (value.length > bounds.valueMax) return false;
    } else if (value !== null && typeof value !== 'boolean' && typeof value !== 'number') return false;
  }
  return true;
}

/** The routes (`PUT /api/answer`) whose body has the fast check: read by the tests. */
export const fastCheckedBodies = new Set<string>();

/**
 * Fastify's validator compiler (its own, @fastify/ajv-compiler, with the app's options), with a
 * fast check before it for a body of answers (PUT /api/answer, issue 33): ajv walked a save's 400
 * keys and values at about an eighth of the save's time in the server, counting each text's code
 * points. A body the fast check passes is one ajv passes unchanged (its values are of a type the
 * schema names, so nothing is coerced); any other goes to ajv, which answers as before.
 */
export function buildValidatorWithAnswersCheck(...args: Parameters<BuildCompiler>): ReturnType<BuildCompiler> {
  const compile = AjvCompiler()(...args);
  return (route) => {
    const compiled = compile(route);
    const validate = compiled as unknown as Validate;
    const bounds = route.httpPart === 'body' ? flatMapBounds(route.schema as Schema) : null;
    if (!bounds) return compiled;
    fastCheckedBodies.add(`${route.method} ${route.url}`);
    const checked: Validate = (data) => {
      if (plainlyWithin(bounds, data)) return true;
      const valid = validate(data);
      checked.errors = validate.errors;
      return valid;
    };
    return Object.assign(checked, { schema: compiled.schema, schemaEnv: compiled.schemaEnv }) as unknown as typeof compiled;
  };
}
