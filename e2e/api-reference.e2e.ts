// The API reference (no login): the page loads the contract document from Herald and the
// renderer from Herald (never a CDN: the page's CSP allows no other origin), shows the
// operations of the document, asks nothing of another origin (no web fonts, no telemetry),
// logs no error, and shows none of the renderer's hosted-service controls. Several of those
// controls appear only on localhost, which is where this runs: a renderer upgrade that brings
// them back fails here.
import { expect, test } from './test';

/**
 * The renderer's bundled schema library asks once whether it may compile with `Function('')`
 * (zod's allowsEval probe, in a try/catch): the page's CSP says no, the probe falls back to
 * plain validation, and the browser reports the refusal. Nothing is lost; the refusal is the
 * CSP doing its job (docs/decisions.md → API reference).
 */
const EVAL_PROBE = /Evaluating a string as JavaScript violates|'unsafe-eval'/;
test.use({ allowedConsoleErrors: [EVAL_PROBE] });

/** What the renderer offers for its own hosted services; none of it works for a Herald user. */
const HOSTED_CONTROLS = ['Ask AI', 'Generate MCP', 'Connect MCP', 'Deploy', 'Deploy on Scalar', 'Open API Client', 'Developer Tools', 'Share'];

test('the API reference renders the live document without login, from Herald alone', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const elsewhere: string[] = [];
  const errors: string[] = [];
  // Every request the page starts, finished or not: one refused by the CSP still counts.
  page.on('request', (req) => {
    const url = req.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (new URL(url).origin !== origin) elsewhere.push(url);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && !EVAL_PROBE.test(m.text())) errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (err) => errors.push(err.message));
  // A fetch the CSP refuses may never become a request the browser reports; the document's
  // own violation events name it.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });

  const res = await page.goto('/api-reference');
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toContain("connect-src 'self'");
  // An operation of the document, by its summary, and a webhook event.
  await expect(page.getByText('Create a draft, a scheduled post, or a post in the next free queue slot').first()).toBeVisible({ timeout: 30_000 });
  // One reference, the one Herald configures (the bundle mounts none of its own).
  await expect(page.locator('.scalar-api-reference')).toHaveCount(1);
  // The webhooks the document describes are listed with the endpoint-management routes of the
  // same name: the group holds the events Herald sends.
  await page.getByRole('button', { name: 'Open Group - Webhooks' }).first().click();
  await expect(page.getByRole('link', { name: /^post\.published/ })).toBeVisible();
  // Fonts and lazy parts are asked for as the page renders: let it settle before counting.
  await page.waitForLoadState('networkidle');

  for (const name of HOSTED_CONTROLS) await expect(page.getByText(name, { exact: true }), name).toHaveCount(0);
  await expect(page.getByPlaceholder('Ask AI Agent')).toHaveCount(0);
  await expect(page.locator('.references-developer-tools')).toHaveCount(0);

  expect(elsewhere, 'requests to another origin').toEqual([]);
  const violations = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
  expect(
    violations.filter((v) => v !== 'script-src eval'),
    'CSP violations',
  ).toEqual([]);
  expect(errors, 'console errors').toEqual([]);
});

test('serves the renderer bundle from Herald itself', async ({ request }) => {
  const renderer = await request.get('/api-reference/renderer.js');
  expect(renderer.status()).toBe(200);
  expect(renderer.headers()['content-type']).toContain('javascript');
});
