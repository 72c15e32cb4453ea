import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, operationsOf } from '../server/http/contract';
import { exampleRequest, responseValidator } from '../server/testing/contractExamples';
import { startPrism } from './prism';
import { baseAnswer, preferHeader, scenarios, type MockAnswer } from './scenarios';

const contract = loadContract();
const validate = responseValidator(contract);
let prism: Awaited<ReturnType<typeof startPrism>>;

beforeAll(async () => {
  prism = await startPrism(4000 + (process.pid % 1000));
}, 90_000);
afterAll(() => prism?.stop());

describe('npm run mock (Prism on the contract)', () => {
  it.each(operationsOf(contract))(
    '$operationId ($method $path) answers with a body that validates against the contract',
    async ({ method, path: route }) => {
      const example = exampleRequest(contract, method, route);
      // Prism checks that the security scheme's credential is there: the applicant's or the staff's cookie, a machine client's key.
      const headers: Record<string, string> = { Cookie: 'portal_session=mock-session; staff_session=mock-staff-session', Authorization: 'Bearer pk_mock-machine-key' };
      let body: BodyInit | undefined;
      if (example.payload) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(example.payload);
      } else if (route === '/upload') {
        const form = new FormData();
        form.set('key', 'uploads/3f2a/additional_info_doc/8c1e5b7d');
        form.set('policy', 'eyJ9');
        form.set('file', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'resume.pdf');
        body = form;
      }
      const response = await fetch(prism.url + example.url, { method, headers, body, redirect: 'manual' });
      // The institution's sign-in answers only with redirects (a navigation, not a call).
      if (route.startsWith('/oidc/')) {
        expect(response.status).toBe(302);
        return;
      }
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      const type = response.headers.get('content-type') ?? '';
      if (response.status === 204) return;
      if (type.includes('application/json')) {
        expect(validate(method, route, response.status, await response.json())).toEqual([]);
      } else {
        expect(type).toMatch(/application\/pdf|application\/zip|text\/csv|text\/tab-separated-values|application\/jsonl/);
      }
    },
  );

  it('validates: a body that breaks the contract is reported', () => {
    expect(validate('GET', '/api/profile', 200, { username: 'x' })).not.toEqual([]);
    expect(validate('GET', '/api/pdf', 200, { status: 'DONE', url: null })).not.toEqual([]);
  });

  it('answers 401 to an /api call without the session cookie', async () => {
    const response = await fetch(`${prism.url}/api/profile`);
    expect(response.status).toBe(401);
  });
});

type Response = { $ref?: string; content?: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> };
/** Every operation's responses, with shared ones (`$ref`) looked up. */
function responsesOf(method: string, route: string): Record<string, Response> {
  const operation = (contract.paths[route] as Record<string, { responses: Record<string, Response> }>)[method.toLowerCase()]!;
  const shared = (contract.components as { responses: Record<string, Response> }).responses;
  return Object.fromEntries(Object.entries(operation.responses).map(([code, response]) => [code, response.$ref ? shared[response.$ref.split('/').pop()!]! : response]));
}
const operations = operationsOf(contract);
const byId = new Map(operations.map((op) => [op.operationId, op]));

/** The status a mock answer stands for: its code, or the operation's success. */
const statusOf = (answer: MockAnswer, responses: Record<string, Response>) => answer.code ?? Number(Object.keys(responses).find((code) => code.startsWith('2')));

describe("the contract's named examples (what the scenarios choose from)", () => {
  const named = operations.flatMap(({ operationId, method, path: route }) =>
    Object.entries(responsesOf(method, route)).flatMap(([code, response]) =>
      Object.entries(response.content?.['application/json']?.examples ?? {}).map(([name, example]) => ({ operationId, method, route, code: Number(code), name, value: example.value })),
    ),
  );

  it.each(named)('$operationId $code "$name" validates against its schema', ({ method, route, code, value }) => {
    expect(validate(method, route, code, value)).toEqual([]);
  });
});

describe("the mock's scenarios (mocks/scenarios.ts)", () => {
  it('have names of their own', () => {
    expect(new Set(scenarios.map((scenario) => scenario.name)).size).toBe(scenarios.length);
  });

  it("are each listed in the README's mock section, and nothing else is", () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Working on the front end against the mock'), readme.indexOf('## Contract first'));
    const listed = [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((match) => match[1]);
    expect(listed.toSorted()).toEqual(scenarios.map((scenario) => scenario.name).toSorted());
  });

  const answers = scenarios.flatMap((scenario) => Object.entries(scenario.answers ?? {}).map(([operationId, answer]) => ({ scenario: scenario.name, operationId, answer })));
  it.each(answers)('$scenario: $operationId answers with a status and an example the contract has', ({ operationId, answer }) => {
    const op = byId.get(operationId);
    expect(op, `no operation ${operationId}`).toBeDefined();
    const responses = responsesOf(op!.method, op!.path);
    const status = statusOf(answer, responses);
    expect(Object.keys(responses), `${operationId} does not declare ${status}`).toContain(String(status));
    if (answer.example) expect(Object.keys(responses[String(status)]!.content?.['application/json']?.examples ?? {})).toContain(answer.example);
  });

  it.each(answers.filter(({ operationId }) => byId.get(operationId)!.method === 'GET'))(
    '$scenario: Prism answers $operationId as the scenario says, through the Prefer header',
    async ({ operationId, answer }) => {
      const op = byId.get(operationId)!;
      const example = exampleRequest(contract, op.method, op.path);
      const response = await fetch(prism.url + example.url, { headers: { Cookie: 'portal_session=mock-session; staff_session=mock-staff-session', Prefer: preferHeader(answer) } });
      const responses = responsesOf(op.method, op.path);
      expect(response.status).toBe(statusOf(answer, responses));
      const body: unknown = await response.json();
      expect(validate(op.method, op.path, response.status, body)).toEqual([]);
      if (answer.example) expect(body).toEqual(responses[String(response.status)]!.content!['application/json']!.examples![answer.example]!.value);
    },
  );

  it("answer the lookup's two forms with their own examples", () => {
    expect(baseAnswer('lookupFind', new URLSearchParams('category=hs_ceeb&id=060385'))).toEqual({ example: 'detail' });
    expect(baseAnswer('lookupFind', new URLSearchParams('category=name&text=east'))).toEqual({ example: 'suggestions' });
    expect(baseAnswer('getProfile', new URLSearchParams())).toBeUndefined();
  });
});
