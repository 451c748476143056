// End-to-end tests against a production build served by `next start`, in Debian's Chromium.
// `npm test` (server/runtime/test-all.ts) prepares the database and the build, then runs this.
import { randomBytes } from 'node:crypto';
import { defineConfig } from '@playwright/test';
import { receiverCert } from './e2e/receiver-cert';

const port = Number(process.env.E2E_PORT ?? 3107);
const baseURL = `http://localhost:${port}`;
const receiver = receiverCert(port);

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
      // The webhook journeys send to a local HTTPS receiver (e2e/staff-webhooks.e2e.ts): this
      // server alone may call 127.0.0.1 and trusts that receiver's certificate. Production
      // leaves both unset, so loopback stays refused and TLS is verified against public CAs.
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      NODE_EXTRA_CA_CERTS: receiver.certPath,
    },
  },
});
