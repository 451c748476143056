// End-to-end tests against a production build, in Debian's Chromium, on both of Herald's
// hostings at once (one database):
//   herald          Herald's own server (server/runtime/serve.mjs), what `npm start` and the
//                   container image run: the API on its fast path, Next.js for the rest. Every test.
//   route-handlers  `next start`: the API through the App Router route handlers, what a
//                   serverless host runs (docs/deploy.md). The API tests (REST, tools, parity).
// `npm test` (server/runtime/test-all.ts) prepares the database and the build, then runs this.
import { randomBytes } from 'node:crypto';
import { defineConfig } from '@playwright/test';
import { receiverCert } from './e2e/receiver-cert';

const port = Number(process.env.E2E_PORT ?? 3107);
const baseURL = `http://localhost:${port}`;
const routeHandlersPort = port + 1;
const routeHandlersURL = `http://localhost:${routeHandlersPort}`;
// The parity test asks both.
process.env.E2E_ROUTE_HANDLERS_URL = routeHandlersURL;
const receiver = receiverCert(port);
/** A stand-in of Telegram's Bot API that e2e/connect-channels.e2e.ts starts (same certificate as the receiver). */
const TELEGRAM_STAND_IN_PORT = port + 20;
/** A stand-in of Neynar's API that e2e/connect-approval.e2e.ts starts (same certificate). */
const NEYNAR_STAND_IN_PORT = port + 21;
const authSecret = process.env.AUTH_SECRET ?? randomBytes(32).toString('base64url');

/** One hosting's environment: its own address, everything else alike. */
const serverEnv = (url: string) => ({
  // The auth URL must use the same host as baseURL, or sign-in fails the CSRF check.
  AUTH_URL: url,
  HERALD_BASE_URL: url,
  AUTH_TRUST_HOST: 'true',
  AUTH_SECRET: authSecret,
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
  // The deployment's Telegram bot, answered by a local stand-in: the connect page's channel form.
  TELEGRAM_BOT_TOKEN: '7000000001:e2e-bot-token',
  TELEGRAM_API_BASE_URL: `https://127.0.0.1:${TELEGRAM_STAND_IN_PORT}`,
  // Farcaster through Neynar, answered by a local stand-in: the connect page's approval step.
  // The custody key is the first account of the standard test mnemonic, never a real one.
  NEYNAR_API_KEY: 'e2e-neynar-key',
  NEYNAR_API_BASE_URL: `https://127.0.0.1:${NEYNAR_STAND_IN_PORT}`,
  FARCASTER_APP_FID: '9152',
  FARCASTER_APP_CUSTODY_PRIVATE_KEY: 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
});

/** The tests that speak only to the API, run on both hostings. */
const API_TESTS = ['api-paths.e2e.ts', 'assistant.e2e.ts', 'sandbox-outcomes.e2e.ts'];

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
  projects: [
    { name: 'herald', use: { baseURL } },
    { name: 'route-handlers', use: { baseURL: routeHandlersURL }, testMatch: API_TESTS.map((f) => `**/${f}`) },
  ],
  webServer: [
    {
      command: `node server/runtime/serve.mjs --port=${port} --max-header-size=16384`,
      url: `${baseURL}/signin`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: serverEnv(baseURL),
    },
    {
      command: `node node_modules/next/dist/bin/next start -p ${routeHandlersPort}`,
      url: `${routeHandlersURL}/signin`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: serverEnv(routeHandlersURL),
    },
  ],
});
