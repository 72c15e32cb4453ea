import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumExecutablePath } from './chromium';
import { FIRST_ADMIN_EMAIL, FIRST_ADMIN_LINK_FILE } from './e2e/support/staff';

const port = Number(process.env.E2E_PORT ?? 3100);
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2525);
// Fixed folders (not per process): the config is loaded again in each worker, which must agree.
const dataDir = '.tmp/e2e-data';
const mailDir = '.tmp/e2e-mail';
process.env.MAIL_DIR = mailDir;

export default defineConfig({
  testDir: 'e2e',
  // Every test on its own, side by side: each makes its own account and moves only its own server
  // clock (e2e/support/fixtures.ts). Two workers keep both cores busy while a page waits on the server.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // A trace of every test costs more than a second of screenshots and snapshots each; a failure
    // still prints its error, the page's ARIA snapshot and a screenshot. For a trace:
    // `npx playwright test --trace retain-on-failure`.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: chromiumExecutablePath, args: chromiumArgs },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'] } },
    // A phone at 390 px, the narrowest width the layout is held to: only the tests that say
    // something about layout, tagged @layout (what a narrow screen wraps, hides or moves, and axe's
    // target sizes and reflow). The accessibility sweep and the staff flow set both widths themselves.
    // At one device pixel per CSS pixel: the layout is the phone's (390 CSS pixels, touch, a mobile
    // viewport), and Chromium's software renderer paints 7 times fewer pixels than at the Pixel's 2.625.
    { name: 'phone', use: { ...devices['Pixel 7'], viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 }, grep: /@layout/ },
  ],
  webServer: [
    // A real SMTP server that keeps what it receives for the tests to read.
    {
      command: `rm -rf ${mailDir} && node --import tsx e2e/support/smtp-sink.ts`,
      port: smtpPort,
      reuseExistingServer: false,
      env: { SMTP_SINK_PORT: String(smtpPort), MAIL_DIR: mailDir },
    },
    // The real server on its embedded defaults (PGlite, local storage), fresh for every run (a
    // copy of the migrated database with the lookup lists loaded, server/testing/images.ts),
    // sending mail over SMTP to the sink. The first staff admin is made from the command line
    // first, as an operator does (PGlite: while the server is not running; scripts/staff.test.ts
    // runs the command on an empty folder); the other staff of the tests in one process after it
    // (e2e/support/seedStaff.ts).
    // The client is built for production as applicants get it: with this env's NODE_ENV=test, Vite
    // would build React's development mode (twice the size, StrictMode's double mounts).
    {
      // `npm test` builds the client among its static checks (E2E_CLIENT_BUILT=1), before Vitest
      // and Playwright start side by side.
      command: `mkdir -p .tmp && node --import tsx server/testing/images.ts ${dataDir} && ${process.env.E2E_CLIENT_BUILT === '1' ? '' : 'NODE_ENV=production npm run -s build && '}node --import tsx scripts/staff.ts add ${FIRST_ADMIN_EMAIL} --role admin > ${FIRST_ADMIN_LINK_FILE} && node --import tsx e2e/support/seedStaff.ts && node --import tsx server/main.ts`,
      url: `http://127.0.0.1:${port}/healthz`,
      reuseExistingServer: false,
      // Beside Vitest on two busy cores the start can take minutes (the build too, when it is here).
      timeout: 360_000,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'test',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        // Many accounts are made from one address in a run; the limits themselves are tested on the server.
        RATE_LIMIT_SCALE: '20',
        // Chromium and the server share two busy cores: the drawn pages' lag check (tested on the
        // server, server/http/drawBudget.test.ts) would send some pages as built and e2e/drawn.spec.ts asserts them drawn.
        DRAW_LAG_LIMIT_MS: '0',
      },
    },
  ],
});
