// The webhooks screens end to end: register an endpoint (the URL judged as it is typed) to a
// local HTTPS receiver this test starts, send a test ping and see it delivered with 200, make
// the receiver fail and see the failure, redeliver it; pause, resume, rotate and recover; axe,
// 375 px and the README's screenshots.
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { check, VIEWPORTS } from './screen-check';
import { expect, test } from './test';
import { receiverCert } from './receiver-cert';
import { api, signIn, tag } from './staff-fixtures';

/** A receiver on 127.0.0.1 with the certificate the server under test trusts; answers `status`. */
async function startReceiver() {
  const { key, cert } = receiverCert(Number(process.env.E2E_PORT ?? 3107));
  const state = { status: 200, received: [] as { event: string; delivery: string; body: string }[] };
  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.received.push({
        event: String(req.headers['x-service-event']),
        delivery: String(req.headers['x-service-delivery']),
        body: Buffer.concat(chunks).toString(),
      });
      res.writeHead(state.status, { 'content-type': 'text/plain' });
      res.end(state.status === 200 ? 'ok' : 'receiver is down for maintenance');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    state,
    url: (p: string) => `https://127.0.0.1:${port}${p}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

test('register an endpoint, test it, see a failure and redeliver', async ({ page }) => {
  test.setTimeout(120_000);
  const t = tag();
  const name = `Orders ${t}`;
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill(name);
  const url = page.getByLabel('URL', { exact: true });
  // Judged as it is typed, by the rules the server applies.
  await url.fill('http://hooks.example.com/herald');
  await expect(page.getByText('Only https URLs are allowed.')).toBeVisible();
  await url.fill('https://user:pw@hooks.example.com/herald');
  await expect(page.getByText('URLs must not contain a user name or password.')).toBeVisible();
  await url.fill('https://10.0.0.8/herald');
  await expect(page.getByText(/The address 10\.0\.0\.8 is private or reserved/)).toBeVisible();
  await url.fill(receiver.url(`/hooks/${t}`));
  await expect(page.getByText(/is private or reserved|Only https/)).toHaveCount(0);
  await expect(page.getByText('One account shipped a post (one event per target).')).toBeVisible();
  await page.getByRole('checkbox', { name: /post\.published/ }).check();
  await page.getByRole('button', { name: 'Register endpoint' }).click();

  // The secret, once, with the verification snippet beside it.
  const secret = page.getByTestId('webhook-secret');
  await expect(secret.getByTestId('secret-value')).toHaveText(/^whsec_[0-9a-f]{64}$/);
  await expect(secret.getByText('This is the only time Herald shows this secret.', { exact: false })).toBeVisible();
  await secret.getByText('Verify the signature in your receiver (Node)').click();
  await expect(secret.getByLabel('Verification snippet')).toContainText('timingSafeEqual');
  await secret.getByRole('button', { name: 'I have saved the secret' }).click();
  await expect(page.getByTestId('webhook-secret')).toHaveCount(0);

  await page.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByText('No deliveries yet')).toBeVisible();

  // A test ping reaches the receiver and the log shows it delivered with 200.
  await page.getByRole('button', { name: 'Send test' }).click();
  const rows = page.getByTestId('delivery-row');
  await expect(rows.first().getByText('Delivered · 200')).toBeVisible({ timeout: 20_000 });
  await expect(rows.first().getByTestId('delivery-status-code')).toHaveText('200');
  expect(receiver.state.received.filter((r) => r.event === 'ping')).toHaveLength(1);
  await rows.first().getByText('Payload').click();
  await expect(rows.first().getByLabel(/Payload of delivery/)).toContainText('"event": "ping"');

  // The receiver fails: the attempt is recorded with its status and error, a retry is due.
  receiver.state.status = 503;
  await page.getByRole('button', { name: 'Send test' }).click();
  const failed = rows.filter({ hasText: 'Retrying · 503' }).first();
  await expect(failed).toBeVisible({ timeout: 20_000 });
  await expect(failed.getByTestId('delivery-error')).toContainText('503');
  const failedId = receiver.state.received.at(-1)!.delivery;

  // Back up, and the failed delivery is sent again as a new delivery with the same bytes.
  receiver.state.status = 200;
  await failed.getByRole('button', { name: 'Redeliver' }).click();
  await expect(page.getByText('Sent again as a new delivery')).toBeVisible();
  await expect
    .poll(() => receiver.state.received.filter((r) => r.event === 'ping' && r.delivery !== failedId).length, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(2);
  const failedBody = receiver.state.received.find((r) => r.delivery === failedId)!.body;
  expect(receiver.state.received.some((r) => r.delivery !== failedId && r.body === failedBody)).toBe(true);
  await expect.poll(() => rows.filter({ hasText: 'Delivered · 200' }).count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);

  // Recover everything that failed since a time (nothing is left failed by now, or the retry delivers it).
  await page.getByRole('button', { name: 'Recover failed' }).click();
  await expect(page.getByText(/sent again/).last()).toBeVisible();

  // Pause, resume, rotate.
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByText('Paused', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send test' })).toBeDisabled();
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await expect(page.getByTestId('secret-value')).toHaveText(/^whsec_[0-9a-f]{64}$/);
  await page.getByRole('button', { name: 'I have saved the secret' }).click();

  const detailUrl = page.url();
  for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
    await page.setViewportSize(size);
    await page.goto('/webhooks');
    await expect(page.getByTestId('webhook-row').first()).toBeVisible();
    await check(page, 'webhooks', viewport);
    await page.goto(detailUrl);
    await expect(rows.first()).toBeVisible();
    await check(page, 'webhook', viewport);
  }
});

test('deleting an endpoint asks first, says what goes with it, and takes it off the list', async ({ page, request }) => {
  const name = `Stale hook ${tag()}`;
  await api(request, 'POST', '/webhooks', { name, url: receiver.url(`/hooks/${tag()}`), events: ['post.failed'] });
  await signIn(page);
  await page.goto('/webhooks');
  await page.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: `Delete ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete ${name}?` });
  await expect(dialog).toContainText('its delivery log is deleted with it');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByText('Endpoint deleted')).toBeVisible();
  await expect(page.getByRole('link', { name })).toHaveCount(0);
});
