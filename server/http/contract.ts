import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const contractPath = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'openapi.yaml');

type Content = Record<string, unknown>;
type Operation = { operationId?: string; requestBody?: { content?: Content }; responses?: Record<string, { content?: Content }> };
export type Contract = { paths: Record<string, Record<string, Operation>> } & Record<string, unknown>;

let parsed: Contract | undefined;

/**
 * openapi.yaml as an object: the server's routes and schemas are taken from it. Read and parsed
 * once per process (a third of a second); each caller gets its own copy to change.
 */
export function loadContract(): Contract {
  parsed ??= parse(readFileSync(contractPath, 'utf8')) as Contract;
  return structuredClone(parsed);
}

/** The contract in two: the paths `taken` holds, and the rest; each with every schema. */
export function splitContract(contract: Contract, taken: (route: string) => boolean): [Contract, Contract] {
  const entries = Object.entries(contract.paths);
  const withPaths = (keep: boolean): Contract => ({ ...contract, paths: Object.fromEntries(entries.filter(([route]) => taken(route) === keep)) });
  return [withPaths(true), withPaths(false)];
}

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Every operation of the contract with its method and path. */
export function operationsOf(contract: Contract): { operationId: string; method: string; path: string }[] {
  const out: { operationId: string; method: string; path: string }[] = [];
  for (const [route, item] of Object.entries(contract.paths)) {
    for (const method of methods) {
      const operationId = item[method]?.operationId;
      if (operationId) out.push({ operationId, method: method.toUpperCase(), path: route });
    }
  }
  return out;
}

/** The media types the contract only answers with: in some response, in no request body. */
export function answeredOnlyTypes(contract: Contract): string[] {
  const sent = new Set<string>();
  const answered = new Set<string>();
  for (const item of Object.values(contract.paths)) {
    for (const method of methods) {
      const operation = item[method];
      for (const type of Object.keys(operation?.requestBody?.content ?? {})) sent.add(type);
      for (const response of Object.values(operation?.responses ?? {})) for (const type of Object.keys(response.content ?? {})) answered.add(type);
    }
  }
  return [...answered].filter((type) => !sent.has(type)).sort();
}
