import { Ajv, type ValidateFunction } from 'ajv';
import { default as addFormats } from 'ajv-formats';
import type { Contract } from '../http/contract';

type Parameter = { name: string; in: string; example?: unknown } | { $ref: string };
type ResolvedParameter = { name: string; in: string; example?: unknown };

/** A parameter as written, or the shared one its `$ref` names. */
function resolved(contract: Contract, parameter: Parameter): ResolvedParameter {
  if (!('$ref' in parameter)) return parameter;
  const name = parameter.$ref.split('/').pop()!;
  return (contract.components as { parameters: Record<string, ResolvedParameter> }).parameters[name]!;
}
type MediaType = { schema?: unknown; example?: unknown };
type OperationObject = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { $ref?: string; content?: Record<string, MediaType> }>;
};

function operationObject(contract: Contract, method: string, route: string): OperationObject {
  return (contract.paths[route] as Record<string, OperationObject>)[method.toLowerCase()]!;
}

/** A request the contract accepts, built from its own examples (a path parameter without one becomes a document field). */
export function exampleRequest(contract: Contract, method: string, route: string) {
  const op = operationObject(contract, method, route);
  const query = new URLSearchParams();
  const parameters = (op.parameters ?? []).map((parameter) => resolved(contract, parameter));
  for (const parameter of parameters) {
    if (parameter.in === 'query' && parameter.example !== undefined) query.set(parameter.name, String(parameter.example));
  }
  const pathExample = (name: string) => parameters.find((p) => p.in === 'path' && p.name === name)?.example;
  const url = route.replace(/\{([^}]+)\}/g, (_whole, name: string) => String(pathExample(name) ?? 'additional_info_doc')) + (query.size ? `?${query}` : '');
  const payload = op.requestBody?.content['application/json']?.example as Record<string, unknown> | undefined;
  return { method: method as 'GET', url, ...(payload ? { payload } : {}) };
}

const pointerEscape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Validates a JSON body against the contract's response schema for one operation and status.
 * The whole contract is added to Ajv once so that its internal `$ref`s resolve.
 */
export function responseValidator(contract: Contract) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(contract as object, 'contract');
  const cache = new Map<string, ValidateFunction>();
  return (method: string, route: string, status: number, body: unknown): string[] => {
    const op = operationObject(contract, method, route);
    let response = op.responses[String(status)];
    if (!response) return [`status ${status} is not in the contract for ${method} ${route}`];
    let pointer = `#/paths/${pointerEscape(route)}/${method.toLowerCase()}/responses/${status}`;
    if (response.$ref) {
      pointer = response.$ref;
      const name = response.$ref.split('/').pop()!;
      response = (contract.components as { responses: Record<string, typeof response> }).responses[name]!;
    }
    if (!response.content?.['application/json']) return [];
    const key = `${pointer}/content/application~1json/schema`;
    let validate = cache.get(key);
    if (!validate) {
      validate = ajv.compile({ $ref: `contract${key}` });
      cache.set(key, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}`);
  };
}
