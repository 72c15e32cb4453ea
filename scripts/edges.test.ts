import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The edges of eslint.config.js hold: imports that cross them are refused, and the allowed ones
 * are not. Each case lints a small module as if it were a file at that place in the tree.
 */
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '..') });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(import.meta.dirname, '..', filePath) });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

describe('the edges ESLint holds', () => {
  it.each([
    ['server/x.ts', "import { authPaths } from '../src/lib/paths';\nexport const a = authPaths;\n"],
    ['domain/x.ts', "import { authPaths } from '../src/lib/paths';\nexport const a = authPaths;\n"],
    ['domain/x.ts', "import { loadConfig } from '../server/infra/config';\nexport const a = loadConfig;\n"],
    ['src/features/auth/x.ts', "import { putAnswer } from '../application/api/answer';\nexport const a = putAnswer;\n"],
    ['src/features/documents/x.ts', "import { useApplication } from '../application/useApplication';\nexport const a = useApplication;\n"],
    ['src/lib/x.ts', "import { FormRoot } from '../app/FormRoot';\nexport const a = FormRoot;\n"],
    ['src/ui/x.ts', "import { putAnswer } from '../features/application/api/answer';\nexport const a = putAnswer;\n"],
  ])('%s may not import %j', async (file, code) => {
    expect(await problems(file, code)).toContain('boundaries/dependencies');
  });

  // Every folder of src/features is a feature of its own: one the rules did not know would import
  // anything (recommend/ imported app/ so, before the feature list was read from the folders).
  const featureFolders = readdirSync(path.resolve(import.meta.dirname, '../src/features'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  it.each(featureFolders.map((entry) => entry.name))('src/features/%s/ is held by the edges: it may not import app/ or another feature', async (name) => {
    const other = name === 'application' ? 'status' : 'application';
    // A file that is there: an import the resolver cannot follow is not an edge.
    const target = readdirSync(path.resolve(import.meta.dirname, '../src/features', other)).find((file) => /^[A-Za-z]+\.tsx?$/.test(file))!.replace(/\.tsx?$/, '');
    expect(await problems(`src/features/${name}/x.ts`, "import { routes } from '../../app/routes';\nexport const a = routes;\n")).toContain('boundaries/dependencies');
    expect(await problems(`src/features/${name}/x.ts`, `import * as other from '../${other}/${target}';\nexport const a = other;\n`)).toContain('boundaries/dependencies');
  });

  // The console is one folder per capability (../shared/design.md: never one flat staff/ folder):
  // its top holds the entry, the paths and the styles, and every other file lives in a capability's folder.
  it('src/features/staff/ holds its entry, paths and styles at the top, the rest in capability folders', () => {
    const top = readdirSync(path.resolve(import.meta.dirname, '../src/features/staff'), { withFileTypes: true });
    expect(top.filter((entry) => entry.isFile()).map((entry) => entry.name).sort()).toEqual(['StaffApp.tsx', 'paths.ts', 'staff.css']);
    expect(top.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()).toEqual(['admin', 'decisions', 'exports', 'kit', 'materials', 'reading', 'records', 'review', 'session']);
  });

  // The server's ground floor imports only the rooms below it; an area imports the ground floor and
  // itself, and no other area: another area's work comes as a callback wired at the root (issue 50).
  it.each([
    ['server/http/x.ts', "import { clock } from '../infra/clock';\nexport const a = clock;\n"],
    ['server/infra/x.ts', "import { recordAudit } from '../office/audit';\nexport const a = recordAudit;\n"],
    ['server/office/x.ts', "import { accountHandlers } from '../accounts/handlers';\nexport const a = accountHandlers;\n"],
    ['server/decisions/x.ts', "import { readerHandlers } from '../reader/applications';\nexport const a = readerHandlers;\n"],
    ['server/reader/x.ts', "import { checklistHandlers } from '../recommenders/recommenders';\nexport const a = checklistHandlers;\n"],
    ['server/recommenders/x.ts', "import { x } from '../reader/notes';\nexport const a = x;\n"],
    ['server/reader/x.ts', "import { decisionOf } from '../decisions/decisions';\nexport const a = decisionOf;\n"],
    ['server/records/x.ts', "import { withdrawRunsCarrying } from '../exports/withdraw';\nexport const a = withdrawRunsCarrying;\n"],
    ['server/files/x.ts', "import { recordAudit } from '../office/audit';\nexport const a = recordAudit;\n"],
    ['server/office/x.ts', "import { convertUpload } from '../files/convert';\nexport const a = convertUpload;\n"],
  ])('%s may not import %j', async (file, code) => {
    expect(await problems(file, code)).toContain('no-restricted-imports');
  });

  it.each([
    ['server/infra/x.ts', "import { isLoopbackUrl } from '../http/paths';\nexport const a = isLoopbackUrl;\n"],
    ['server/office/x.ts', "import { clock } from '../infra/clock';\nimport { handlers } from '../http/handler';\nexport const a = [clock, handlers];\n"],
    ['server/decisions/x.ts', "import { recordAudit } from '../office/audit';\nimport { clock } from '../infra/clock';\nimport { catalogue } from '../../domain/catalogue';\nexport const a = [recordAudit, clock, catalogue];\n"],
    ['server/reader/x.ts', "import { waiverBound } from '../office/waiver';\nimport { convertUpload } from '../files/convert';\nexport const a = [waiverBound, convertUpload];\n"],
    ['server/files/x.ts', "import { printHtml } from '../infra/browser';\nexport const a = printHtml;\n"],
  ])('%s may import %j', async (file, code) => {
    expect((await problems(file, code)).filter((rule) => rule === 'no-restricted-imports')).toEqual([]);
  });

  // Every folder of server/ is held: on the ground floor or an area (testing/ is the suites' own).
  const serverFolders = readdirSync(path.resolve(import.meta.dirname, '../server'), { withFileTypes: true }).filter((entry) => entry.isDirectory() && entry.name !== 'testing');
  it.each(serverFolders.map((entry) => entry.name))('server/%s/ may not import the root', async (name) => {
    expect(await problems(`server/${name}/x.ts`, "import { buildApp } from '../app';\nexport const a = buildApp;\n")).toContain('no-restricted-imports');
  });

  // One way to refuse (decision 0042): a handler throws HttpError; reply is for success.
  it.each([
    ['a refusal sent by reply', "export const f = (reply: { code(n: number): { send(b: unknown): unknown } }) => reply.code(404).send({ message: 'No.' });\n"],
    ['a refusal carried out as a status object', "export const f = () => ({ status: 409 as const, message: 'No.' });\n"],
  ])('a server area may not hold %s', async (_what, code) => {
    expect(await problems('server/reader/x.ts', code)).toContain('no-restricted-syntax');
  });
  // One way to read a refusal in the client: fieldErrorsOf(error), never error.fieldErrors in a feature.
  it('a feature may not read a refusal\'s fieldErrors itself', async () => {
    const code = "import { ServerError } from '../../lib/api/errors';\nexport const f = (error: unknown) => (error instanceof ServerError ? error.fieldErrors : undefined);\n";
    expect(await problems('src/features/staff/x.ts', code)).toContain('no-restricted-syntax');
    expect(await problems('src/features/staff/x.ts', "import { fieldErrorsOf } from '../../lib/api/errors';\nexport const f = (error: unknown) => fieldErrorsOf(error);\n")).not.toContain('no-restricted-syntax');
  });
  it('a server area may answer success by reply, and a health report with 503', async () => {
    const code = "export const f = (reply: { code(n: number): { send(b: unknown): unknown } }) => [reply.code(200).send({}), reply.code(503).send({ status: 'error' })];\n";
    expect(await problems('server/infra/x.ts', code)).toEqual([]);
  });

  it('domain/ may not import Node or React', async () => {
    expect(await problems('domain/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n")).toContain('no-restricted-imports');
    expect(await problems('domain/x.ts', "import { useState } from 'react';\nexport const a = useState;\n")).toContain('no-restricted-imports');
  });

  it.each([
    ['src/features/auth/x.ts', "import { authPaths } from '../../lib/paths';\nimport { Button } from '../../ui/Button';\nimport { catalogue } from '../../../domain/catalogue';\nexport const a = [authPaths, Button, catalogue];\n"],
    ['src/app/x.ts', "import { FormPage } from '../features/application/FormPage';\nimport { PdfCopy } from '../features/documents/PdfCopy';\nexport const a = [FormPage, PdfCopy];\n"],
    ['server/x.ts', "import { catalogue } from '../domain/catalogue';\nexport const a = catalogue;\n"],
  ])('%s may import %j', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });

  it('a disable comment without a reason is refused', async () => {
    const code = "export function f(x: number) {\n  // eslint-disable-next-line no-debugger\n  debugger;\n  return x;\n}\n";
    expect(await problems('src/lib/x.ts', code)).toContain('@eslint-community/eslint-comments/require-description');
  });
});
