import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { e2eServerEnv } from './e2e/server-env';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
// A new SQLite file per run, so every run starts from the first-start bootstrap. The config is
// also loaded by worker processes; they inherit the runner's environment and so the same path.
process.env.TOOLGATE_E2E_DATABASE ??= path.join(os.tmpdir(), `toolgate-e2e-${process.pid}-${Date.now()}.db`);

export default defineConfig({
  testDir: 'e2e',
  // Not test-results/ itself: Playwright empties its outputDir, and vitest's report lives there.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results/e2e',
  // Starts the OpenID provider SSO signs in against (e2e/oidc.ts); stops it when the run ends.
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  // A flaky test is a bug to fix, not to retry; one worker because all tests share one server.
  retries: 0,
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  timeout: 60_000,
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // Debian's chromium: `npx playwright install` would try to download a browser, and
        // these machines are offline. The flags stop it from phoning home on start.
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'node scripts/serve.mjs',
    url: `${baseURL}/sign-in`,
    reuseExistingServer: false,
    // The first start runs `next build`, which takes a minute or two on two quiet cores and
    // several times that when other builds share them.
    timeout: 600_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    env: e2eServerEnv(port, baseURL),
  },
});
