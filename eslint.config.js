// The edges of the codebase, held by tools (see docs/decisions/0008-domain-core-and-feature-folders.md):
// domain/ imports nothing of views/, src/ or server/; views/ only domain/; server/ never imports src/; features talk to each
// other only through ui/ and lib/; nothing imports app/; no import cycles.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import boundaries from 'eslint-plugin-boundaries';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Every folder of src/features is a feature, each its own element: a folder added is held at once
// (scripts/edges.test.ts fails if one is not).
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const feature = (name) => `feature-${name}`;

// The server's ground floor: each room and the rooms it may import.
const groundFloor = { http: [], infra: ['http'], office: ['http', 'infra'], files: ['http', 'infra'] };
// Every other folder of server/ is an area (testing/ is the suites' own).
const serverAreas = readdirSync(new URL('./server', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !(entry.name in groundFloor) && entry.name !== 'testing')
  .map((entry) => entry.name);

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'generated/', '.tmp/', 'test-results/', 'playwright-report/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  comments.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A disable comment says why on the same line: `// eslint-disable-line rule -- reason`.
      '@eslint-community/eslint-comments/require-description': ['error', { ignore: [] }],
      '@eslint-community/eslint-comments/disable-enable-pair': ['error', { allowWholeFile: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'views/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // import-x reads the TypeScript files an import leads to, to follow cycles through them.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/include': ['domain/**', 'views/**', 'src/**', 'server/**', 'generated/**', 'e2e/**', 'scripts/**', 'mocks/**', '*.ts'],
      'boundaries/elements': [
        { type: 'domain', pattern: 'domain/**', partialMatch: false },
        { type: 'generated', pattern: 'generated/**', partialMatch: false },
        { type: 'server', pattern: 'server/**', partialMatch: false },
        // The application document: React that renders without a browser, shown by the client and printed by the server.
        { type: 'views', pattern: 'views/**', partialMatch: false },
        { type: 'app', pattern: 'src/app/**', partialMatch: false },
        { type: 'lib', pattern: 'src/lib/**', partialMatch: false },
        { type: 'ui', pattern: 'src/ui/**', partialMatch: false },
        { type: 'client-tests', pattern: 'src/test/**', partialMatch: false },
        // Client code driven against the real server (the answers' path, issue 48), in a withServer/
        // folder: before the features, so it is matched first.
        { type: 'model-tests', pattern: 'src/**/withServer/**', partialMatch: false },
        ...features.map((name) => ({ type: feature(name), pattern: `src/features/${name}/**`, partialMatch: false })),
        { type: 'tools', pattern: ['e2e/**', 'scripts/**', 'mocks/**'], partialMatch: false },
      ],
      'import/resolver': { typescript: { project: ['domain/tsconfig.json', 'views/tsconfig.json', 'src/tsconfig.json', 'server/tsconfig.json', 'tsconfig.json'], noWarnOnMultipleProjects: true } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            { from: { element: { type: 'domain' } }, allow: { to: { element: { types: { anyOf: ['domain', 'generated'] } } } } },
            { from: { element: { type: 'server' } }, allow: { to: { element: { types: { anyOf: ['server', 'views', 'domain', 'generated'] } } } } },
            { from: { element: { type: 'views' } }, allow: { to: { element: { types: { anyOf: ['views', 'domain', 'generated'] } } } } },
            { from: { element: { type: 'app' } }, allow: { to: { element: { types: { anyOf: ['app', 'lib', 'ui', 'domain', 'generated', ...features.map(feature)] } } } } },
            { from: { element: { type: 'lib' } }, allow: { to: { element: { types: { anyOf: ['lib', 'domain', 'generated'] } } } } },
            { from: { element: { type: 'ui' } }, allow: { to: { element: { types: { anyOf: ['ui', 'domain', 'client-tests'] } } } } },
            { from: { element: { type: 'client-tests' } }, allow: { to: { element: { types: { anyOf: ['client-tests', 'ui', 'lib', 'domain'] } } } } },
            ...features.map((name) => ({
              from: { element: { type: feature(name) } },
              allow: { to: { element: { types: { anyOf: [feature(name), 'views', 'lib', 'ui', 'domain', 'generated', 'client-tests'] } } } },
            })),
            { from: { element: { type: 'model-tests' } }, allow: { to: { element: { types: { anyOf: ['server', 'lib', 'domain', 'generated', feature('application')] } } } } },
            { from: { element: { type: 'tools' } }, allow: { to: { element: { types: { anyOf: ['tools', 'server', 'domain', 'generated'] } } } } },
          ],
        },
      ],
    },
  },
  {
    // One way to read a refusal in the client (issue 50): its fields by `fieldErrorsOf(error)`, its
    // banner by `<MutationError>` (src/lib/api/errors.ts, src/ui/MutationError.tsx), not each form reaching into ServerError.
    files: ['src/features/**/*.{ts,tsx}', 'src/app/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': ['error', { selector: "MemberExpression[property.name='fieldErrors']", message: 'Read the fields a refusal names with fieldErrorsOf(error) (src/lib/api/errors.ts).' }],
    },
  },
  // The server's ground floor, each room importing only the rooms below it, never an area or the
  // root (server/app.ts, server/worker.ts): http/ (handlers, errors, security, pages) imports nothing
  // of the server; infra/ (config, database, storage, jobs, mail) only http/; office/ (the audit log,
  // the staff session guard, the checklist, the application as views read it, conflicts, search
  // folding, mail and spreadsheet forms, download names) and files/ (an upload's checks and its
  // conversion to PDF) http/ and infra/. Their tests drive the whole app.
  ...Object.entries(groundFloor).map(([room, below]) => ({
    files: [`server/${room}/**/*.ts`],
    ignores: [`server/${room}/**/*.test.ts`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: `^\\.\\./(?!\\.\\./${below.map((name) => `|${name}/`).join('')})`, message: `server/${room}/ is on the ground floor: it imports ${below.length ? below.map((name) => `${name}/`).join(' and ') : 'nothing of the server'} and no area, not the root.` }] }],
    },
  })),
  // Each area (accounts/, reader/, decisions/, …) imports the ground floor and itself; one area
  // reaching into another is a callback wired at the root (as submit → the PDF copy is), not an
  // import. No area imports another (issue 50 turned the last 16 into callbacks or ground-floor kit).
  ...serverAreas.map((area) => ({
    files: [`server/${area}/**/*.ts`],
    ignores: [`server/${area}/**/*.test.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^\\.\\./(?!\\.\\./|(?:${Object.keys(groundFloor).join('|')})/)`,
              message: `server/${area}/ is an area: it imports the ground floor (${Object.keys(groundFloor).join(', ')}) and itself; reach another area through a callback wired at the root.`,
            },
          ],
        },
      ],
    },
  })),
  {
    // One way to refuse (decision 0042): `throw new HttpError(status, message, { errors })` from a
    // handler, hook or helper; `reply` only for success. The app's error handler and its not-found
    // handler (server/app.ts) are where refusals are sent.
    files: ['server/**/*.ts'],
    ignores: ['server/**/*.test.ts', 'server/app.ts', 'server/testing/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='code'][arguments.0.value>=400][arguments.0.value<500]", message: 'Refuse with throw new HttpError(status, message, { errors }) (decision 0042): reply is for success.' },
        { selector: "Property[key.name='status'][value.type='TSAsExpression'][value.expression.value>=400][value.expression.value<500]", message: 'Refuse with throw new HttpError(status, message) where the refusal is found (decision 0042), not a status object carried out.' },
      ],
    },
  },
  {
    // domain/ runs on both halves: no React, no DOM, no Node built-ins.
    files: ['domain/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*', 'react', 'react-*', 'react/*'], message: 'domain/ runs in the browser and on the server: no Node or React here.' }] }],
    },
  },
);
