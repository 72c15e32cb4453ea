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
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: chromiumExecutablePath, args: chromiumArgs },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'] } },
    // A phone at 390 px, the narrowest width the accessibility checks hold the layout to. Run on the
    // desktop project only: the sweep (it sets both widths itself), the keyboard walk (a phone has
    // no Tab key), the one journey through the Prism proxy and the two-instance journey.
    {
      name: 'phone',
      use: { ...devices['Pixel 7'], viewport: { width: 390, height: 844 } },
      // The staff flow too: it uses the one first-admin link, and checks each screen at both widths itself.
      testIgnore: [/accessibility\.spec/, /keyboard\.spec/, /contract-proxy\.spec/, /scale-out\.spec/, /staff\.spec/],
    },
  ],
  webServer: [
    // A real SMTP server that keeps what it receives for the tests to read.
    {
      command: `rm -rf ${mailDir} && node --import tsx e2e/support/smtp-sink.ts`,
      port: smtpPort,
      reuseExistingServer: false,
      env: { SMTP_SINK_PORT: String(smtpPort), MAIL_DIR: mailDir },
    },
    // The real server on its embedded defaults (PGlite, local storage), fresh for every run,
    // sending mail over SMTP to the sink. The first staff admin is made from the command line
    // first, as an operator does on a fresh machine (PGlite: while the server is not running).
    // The client is built for production as applicants get it: with this env's NODE_ENV=test, Vite
    // would build React's development mode (twice the size, StrictMode's double mounts).
    {
      command: `rm -rf ${dataDir} && mkdir -p .tmp && NODE_ENV=production npm run -s build && node --import tsx scripts/staff.ts add ${FIRST_ADMIN_EMAIL} --role admin > ${FIRST_ADMIN_LINK_FILE} && node --import tsx server/main.ts`,
      url: `http://127.0.0.1:${port}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'test',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        // Many accounts are made from one address in a run; the limits themselves are tested on the server.
        RATE_LIMIT_SCALE: '20',
      },
    },
  ],
});
