// The verification snippet published in docs/webhooks.md, run as written against real
// deliveries: it accepts what Herald signs, and refuses anything else.
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOutboundClient, type OutboundClient } from '@/server/outbound';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { createSelfSignedCert, type SelfSignedCert } from '@/server/testing/self-signed-cert';
import { attemptDelivery } from './attempt';
import { useWebhookTransport } from './transport';
import { VERIFICATION_SNIPPET } from './verification-snippet';

type Handler = (secret: string, onEvent: (event: unknown, deliveryId: unknown) => void) => RequestListener;
interface Snippet {
  verifyWebhook(rawBody: Buffer, header: unknown, secret: string): boolean;
  webhookHandler: Handler;
}

const api = usePublicApi();

/** The code block after `<!-- verification-snippet -->` in docs/webhooks.md. */
function documentedSnippet(): string {
  const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');
  const match = /<!-- verification-snippet -->\s*(?:<!-- prettier-ignore -->\s*)?```js\n([\s\S]*?)\n```/.exec(doc);
  if (!match) throw new Error('docs/webhooks.md has no verification snippet');
  return match[1]!;
}

/** The snippet as the app shows it (verification-snippet.ts); the documentation must say the same. */
function publishedSnippet(): string {
  return VERIFICATION_SNIPPET;
}

let snippet: Snippet;
let dir: string;
let tls: SelfSignedCert;
let client: OutboundClient;
let server: https.Server;
let port: number;
/** Which secret the receiver verifies with, and what it accepted. */
const receiver = { secret: '', accepted: [] as { event: unknown; deliveryId: unknown }[] };

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'herald-snippet-'));
  const file = path.join(dir, 'verify.mjs');
  writeFileSync(file, publishedSnippet());
  snippet = (await import(pathToFileURL(file).href)) as Snippet;

  tls = createSelfSignedCert('snippet-receiver', ['IP:127.0.0.1']);
  server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) =>
    snippet.webhookHandler(receiver.secret, (event, deliveryId) => receiver.accepted.push({ event, deliveryId }))(req, res),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  vi.stubEnv('OUTBOUND_ALLOW_HOSTS', '127.0.0.1');
  client = createOutboundClient({ ca: tls.cert });
  useWebhookTransport({ client });
});
afterAll(async () => {
  useWebhookTransport(undefined);
  await client?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  tls.remove();
  rmSync(dir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

describe('the published verification snippet', () => {
  it('is the one docs/webhooks.md publishes', () => {
    expect(documentedSnippet()).toBe(publishedSnippet());
  });

  it('is about 15 lines of Node', () => {
    expect(publishedSnippet().split('\n')).toHaveLength(15);
  });

  it('accepts real deliveries and refuses them after the secret changed', async () => {
    const { secret: key } = await createWorkspaceWithKey();
    const created = await api('POST', '/webhooks', { key, body: { name: 'snippet', url: `https://127.0.0.1:${port}/hooks`, events: ['post.failed'] } });
    const endpointId = created.body.data.id;
    receiver.secret = created.body.data.secret;

    const ping = (await api('POST', `/webhooks/${endpointId}/test`, { key })).body.data.id;
    expect(await attemptDelivery(ping)).toBe('delivered');
    expect(receiver.accepted).toEqual([
      { event: expect.objectContaining({ version: '1', event: 'ping', data: expect.objectContaining({ endpointId }) }), deliveryId: ping },
    ]);

    // Rotated on Herald's side, not yet on the receiver's: the snippet answers 401.
    await api('POST', `/webhooks/${endpointId}/rotate-secret`, { key });
    const refused = (await api('POST', `/webhooks/${endpointId}/test`, { key })).body.data.id;
    expect(await attemptDelivery(refused)).toBe('retrying');
    const log = (await api('GET', `/webhooks/${endpointId}/deliveries?limit=1`, { key })).body.data[0];
    expect(log).toMatchObject({ id: refused, statusCode: 401, attempt: 1 });
    expect(receiver.accepted).toHaveLength(1);
  });

  it('checks the raw bytes, in constant time, tolerating case and surrounding space only', () => {
    const secret = `whsec_${'ab'.repeat(32)}`;
    const body = Buffer.from('{"version":"1","event":"ping","timestamp":"2026-11-22T00:00:00.000Z","data":{}}');
    const signature = createHmac('sha256', secret).update(body).digest('hex');
    expect(snippet.verifyWebhook(body, signature, secret)).toBe(true);
    expect(snippet.verifyWebhook(body, ` ${signature.toUpperCase()} `, secret)).toBe(true);
    expect(snippet.verifyWebhook(body, '', secret)).toBe(false);
    expect(snippet.verifyWebhook(body, undefined, secret)).toBe(false);
    expect(snippet.verifyWebhook(body, signature.slice(1), secret)).toBe(false);
    expect(snippet.verifyWebhook(body, `${signature}00`, secret)).toBe(false);
    expect(snippet.verifyWebhook(body, signature, `${secret}x`)).toBe(false);
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 1));
    expect(snippet.verifyWebhook(reserialised, signature, secret)).toBe(false);
  });
});
