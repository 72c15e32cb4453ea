import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { scenarios, type MockScenario } from '../mocks/scenarios';
import { scenarioAddress } from '../mocks/vite-mock';
import { until } from '../server/testing/serverProcess';

/**
 * Every screen of the mock's scenario list (mocks/scenarios.ts), reached against `npm run dev:mock`
 * alone: the Vite dev server and Prism, no real server. A real browser, because the scenario is
 * chosen the way a front-end developer chooses it (`?mock=<name>`, a cookie the dev server's proxy
 * turns into Prism's `Prefer` header) and the screen is the app's own, drawn from Prism's answers.
 */

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

let devMock: ChildProcess | undefined;
let origin = '';

test.beforeAll(async () => {
  const [vitePort, mockPort] = [await freePort(), await freePort()];
  origin = `http://127.0.0.1:${vitePort}`;
  // Its own process group: concurrently, Prism and Vite stop together with it.
  devMock = spawn('npm', ['run', '-s', 'dev:mock'], { env: { ...process.env, VITE_PORT: String(vitePort), MOCK_PORT: String(mockPort) }, detached: true, stdio: 'ignore' });
  // Prism answers through the dev server's proxy once both are up.
  await until('npm run dev:mock to answer', async () => ((await fetch(`${origin}/healthz`)).ok ? true : undefined), 120);
});

test.afterAll(() => {
  if (devMock?.pid) process.kill(-devMock.pid, 'SIGTERM');
});

async function act(page: Page, scenario: MockScenario) {
  for (const step of scenario.steps ?? []) {
    if ('fill' in step) await page.locator(`#${step.fill}`).fill(step.with);
    else if ('press' in step) await page.getByRole('button', { name: step.press, exact: true }).click();
    else await page.locator(`input[type="file"]#${step.choose}`).setInputFiles({ name: step.file, mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
  }
}

function shown(page: Page, scenario: MockScenario) {
  const { shows } = scenario;
  return 'text' in shows ? page.getByText(shows.text, { exact: false }).first() : page.getByRole(shows.role, { name: shows.name }).first();
}

/**
 * Waits for the scenario's screen. A screen that comes after the page's own timers (the shortened
 * idle clock, a save's debounce and retry, a script error raised a second in) is reached by moving
 * the page's clock on a second at a time, never by waiting the timers out.
 */
async function reach(page: Page, scenario: MockScenario) {
  const screen = shown(page, scenario);
  await expect
    .poll(
      async () => {
        if (await screen.isVisible()) return true;
        // A page between two documents has no clock to move yet: the next poll moves it.
        await page.clock.fastForward(1000).catch(() => undefined);
        return false;
      },
      { timeout: 15_000, intervals: [100] },
    )
    .toBe(true);
}

test('every scenario of the mock reaches its screen', async ({ page }) => {
  test.setTimeout(300_000);
  const unreached: string[] = [];
  // The page's timers run as they do for a developer, and move on when a screen waits on them (reach).
  await page.clock.install();
  for (const scenario of scenarios) {
    try {
      // Nothing of the scenario before (drafts, answers carried on leaving) is left for this one:
      // cleared from the list's page, where no app runs. One page, not a new browser per scenario.
      await page.goto(`${origin}/__mock`);
      await page.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
      await page.goto(origin + scenarioAddress(scenario));
      await act(page, scenario);
      await reach(page, scenario);
    } catch (error) {
      // What the page showed instead, to tell a wrong answer from a wrong screen.
      const instead = await page.locator('body').ariaSnapshot().catch(() => '');
      unreached.push(`${scenario.name} (${scenario.page}): ${(error as Error).message.split('\n')[0]}\n${instead.slice(0, 1500)}`);
    }
  }
  expect(unreached).toEqual([]);
});
