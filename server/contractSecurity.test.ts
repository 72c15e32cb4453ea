import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import openapiGlue from 'fastify-openapi-glue';
import { describe, expect, it } from 'vitest';
import { SESSION_INVALID_MESSAGE } from '../domain/messages';
import { staffMessages } from '../domain/staff';
import { contractSecurity, glueOptions, schemeRefusal } from './app';
import type { Handlers } from './http/handler';
import { machineMessages } from './exports/machine';
import { HttpError } from './http/errors';
import { loadContract, operationsOf } from './http/contract';
import { serviceMessages } from './service/serviceView';

type Scheme = keyof typeof contractSecurity;
const contract = loadContract();
const globalSecurity = (contract.security ?? []) as Record<string, unknown>[];

/** Each operation with the schemes its contract names (its own `security:`, else the document's). */
const operations = operationsOf(contract).map((operation) => {
  const declared = (contract.paths[operation.path]![operation.method.toLowerCase()] as { security?: Record<string, unknown>[] }).security ?? globalSecurity;
  return { ...operation, schemes: declared.flatMap((requirement) => Object.keys(requirement)) as Scheme[] };
});

/** A request as the hooks leave it: no session of any kind unless given. */
const requestWith = (held: Partial<Record<'session' | 'staff' | 'machine', object>> = {}, query: Record<string, string> = {}) =>
  ({ session: null, staff: null, machine: null, query, ...held }) as unknown as Parameters<(typeof contractSecurity)[Scheme]>[0]; // the checks read these fields only

describe("the contract's security, as the glue enforces it (issue 50)", () => {
  it('names only schemes the app checks, and every operation either names one or is public on purpose', () => {
    const schemes = new Set(operations.flatMap((operation) => operation.schemes));
    expect([...schemes].sort()).toEqual(Object.keys(contractSecurity).sort());
    expect(operations.filter((operation) => operation.schemes.length > 0).length).toBeGreaterThan(100);
  });

  it.each([
    ['cookieAuth', { session: {} }, {}, SESSION_INVALID_MESSAGE],
    ['staffCookie', { staff: {} }, {}, staffMessages.sessionEnded],
    ['machineKey', { machine: {} }, {}, machineMessages.keyInvalid],
    ['serviceToken', {}, { service_token: 'a-token' }, serviceMessages.invalidToken],
  ] as const)('%s: refused with 401 and its own message without it, passed with it', (scheme, held, query, message) => {
    const check = contractSecurity[scheme];
    let refusal: unknown;
    try {
      check(requestWith());
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(HttpError);
    expect(refusal).toMatchObject({ statusCode: 401, message });
    expect(() => check(requestWith(held, query))).not.toThrow();
  });

  // The glue given the app's own options on the whole contract, with no session hook in front:
  // every guarded operation is refused before its handler, and no public one is.
  it('refuses every guarded operation before its handler and lets every public one through', async () => {
    const app = Fastify({ ajv: { customOptions: { strict: false, coerceTypes: 'array' } } });
    await app.register(fastifyCookie);
    await app.register(fastifyMultipart);
    for (const field of ['session', 'staff', 'machine'] as const) app.decorateRequest(field, null);
    // Validation is not what is tested: the schemas are dropped, so each call reaches the checks.
    app.addHook('onRoute', (route) => void delete route.schema);
    const reached: string[] = [];
    // The options the app gives the glue, with handlers that only say they were reached.
    const handlers = Object.fromEntries(
      operations.map(({ operationId }) => [
        operationId,
        async () => {
          reached.push(operationId);
          return { reached: operationId };
        },
      ]),
    ) as Handlers;
    await app.register(openapiGlue, glueOptions(structuredClone(contract), handlers));
    for (const { operationId, method, path, schemes } of operations) {
      const response = await app.inject({ method: method as 'GET', url: path.replace(/\{[^}]+\}/g, '1') });
      if (schemes.length > 0) expect([operationId, response.statusCode, reached.includes(operationId)]).toEqual([operationId, 401, false]);
      else expect([operationId, response.statusCode]).toEqual([operationId, 200]);
    }
    await app.close();
  });
});

describe('a refused scheme, as the app answers it', () => {
  it("is the check's own refusal, found inside the glue's error", async () => {
    const app = Fastify();
    await app.register(fastifyCookie);
    for (const field of ['session', 'staff', 'machine'] as const) app.decorateRequest(field, null);
    let raised: Error | undefined;
    app.setErrorHandler((error: Error, _request, reply) => {
      raised = error;
      return reply.code(500).send();
    });
    app.addHook('onRoute', (route) => void delete route.schema);
    await app.register(openapiGlue, glueOptions(structuredClone(contract), {}));
    await app.inject({ method: 'GET', url: '/api/profile' });
    expect(raised?.name).toBe('Unauthorized');
    expect(schemeRefusal(raised!)).toMatchObject({ statusCode: 401, message: SESSION_INVALID_MESSAGE });
    expect(schemeRefusal(new Error('another'))).toBeUndefined();
    await app.close();
  });
});
