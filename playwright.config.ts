// End-to-end tests against a production build served by `next start`, in Debian's Chromium.
// `npm test` (server/runtime/test-all.ts) prepares the database and the build, then runs this.
import { randomBytes } from 'node:crypto';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3107);
const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.e2e.ts',
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 60_000,
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: `node node_modules/next/dist/bin/next start -p ${port}`,
    url: `${baseURL}/signin`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      // The auth URL must use the same host as baseURL, or sign-in fails the CSRF check.
      AUTH_URL: baseURL,
      HERALD_BASE_URL: baseURL,
      AUTH_TRUST_HOST: 'true',
      AUTH_SECRET: process.env.AUTH_SECRET ?? randomBytes(32).toString('base64url'),
      NEXT_TELEMETRY_DISABLED: '1',
      // The hosted connect page connects sandbox demo accounts (no platform app here).
      CONNECT_SANDBOX: 'on',
      // Every page load shares one client address here; throttling has its own tests.
      CLIENT_LINK_RATE_LIMIT_PER_MINUTE: '10000',
    },
  },
});
