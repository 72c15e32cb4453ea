import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, operationsOf } from '../server/http/contract';
import { exampleRequest, responseValidator } from '../server/testing/contractExamples';
import { startPrism } from './prism';

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
      // Prism checks that the security scheme's cookie is there: the applicant's or the staff's.
      const headers: Record<string, string> = { Cookie: 'portal_session=mock-session; staff_session=mock-staff-session' };
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
      const response = await fetch(prism.url + example.url, { method, headers, body });
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      const type = response.headers.get('content-type') ?? '';
      if (response.status === 204) return;
      if (type.includes('application/json')) {
        expect(validate(method, route, response.status, await response.json())).toEqual([]);
      } else {
        expect(type).toMatch(/application\/pdf|text\/csv|application\/jsonl/);
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
