// herald webhooks listen --forward-to <url>: Herald only POSTs to public https addresses (the
// outbound guard), so it cannot reach a developer's localhost. The listener reads instead:
// it polls the delivery log of the workspace's webhook endpoints (GET /webhooks/{id}/deliveries,
// which holds each delivery's body) and forwards every new delivery to the local URL, signed
// with a secret of its own printed at start, as Herald signs (X-Service-Signature: hex
// HMAC-SHA256 of the body keyed with the whole whsec_ secret). It registers nothing, so Ctrl-C
// has nothing to clean up. docs/decisions.md has the reasoning.
import { createHmac, randomBytes } from 'node:crypto';
import { HeraldError } from '../../sdk/src/index.js';
import { list, str, type Command } from './command.js';
import { CliError, EXIT, usage } from './errors.js';
import { line } from './output.js';

type Delivery = { id: string; event: string; createdAt: string; payload: Record<string, unknown> };

/** Waits `ms`, or less when `stop` settles first (the timer then ends too: nothing keeps the program alive). */
function sleep(ms: number, stop: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, ms))), stop]).finally(() => clearTimeout(timer));
}

export const webhooksListen: Command = {
  words: ['webhooks', 'listen'],
  summary: 'Forward the workspace’s webhook events to a local URL, signed with a local secret',
  options: {
    'forward-to': { type: 'string', value: 'url', description: 'Where to POST each event (required), e.g. http://localhost:3000/hooks' },
    endpoint: { type: 'string', multiple: true, value: 'id', description: 'Tail only this webhook endpoint (default: every active one)' },
    events: { type: 'string', value: 'a,b', description: 'Forward only these events (comma-separated)' },
    secret: { type: 'string', value: 'whsec_…', description: 'Sign with this secret (default: a new one, printed at start)' },
    interval: { type: 'string', value: 'ms', description: 'How often to read the delivery log (default 2000)' },
  },
  details:
    'Events reach the listener through the delivery log of a webhook endpoint registered in the workspace (any public https receiver, e.g. staging): ' +
    'every delivery created after the start is forwarded once, with X-Service-Event and X-Service-Delivery as Herald sends them. Ctrl-C stops.',
  async run(ctx) {
    const target = str(ctx.values, 'forward-to');
    if (!target) throw usage('--forward-to <url> is required');
    let targetUrl: URL;
    try {
      targetUrl = new URL(target);
    } catch {
      throw usage(`--forward-to ${target} is not a URL`);
    }
    const interval = Number(str(ctx.values, 'interval') ?? 2000);
    if (!Number.isFinite(interval) || interval < 100) throw usage('--interval is at least 100 (ms)');
    const only = new Set(
      (str(ctx.values, 'events') ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean),
    );
    const secret = str(ctx.values, 'secret') ?? `whsec_${randomBytes(32).toString('hex')}`;
    const { herald } = ctx.client();

    const wanted = list(ctx.values, 'endpoint');
    const endpoints = wanted.length
      ? await Promise.all(wanted.map(async (id) => (await herald.webhooks.get(id)).data))
      : (await herald.webhooks.list()).data.filter((e) => e.active);
    if (!endpoints.length) {
      throw new CliError(
        'NO_WEBHOOK_ENDPOINT',
        'No active webhook endpoint in this workspace: the listener forwards what Herald delivers to one. Register one with an https URL Herald can reach (POST /webhooks, or the app’s Settings → Webhooks), then run listen again.',
        EXIT.USAGE,
      );
    }

    // What is already in the logs is history: only deliveries created from now on are forwarded.
    const seen = new Set<string>();
    const forwardedBodies = new Set<string>();
    const read = async (endpointId: string): Promise<Delivery[]> => (await herald.webhooks.deliveries(endpointId, { limit: 50 })).data as Delivery[];
    for (const endpoint of endpoints) for (const d of await read(endpoint.id)) seen.add(d.id);

    const say = (human: string, json: Record<string, unknown>) => (ctx.json ? line(ctx.io.stdout, JSON.stringify(json)) : line(ctx.io.stdout, human));
    const ready = { type: 'ready', forwardTo: targetUrl.href, secret, endpoints: endpoints.map((e) => ({ id: e.id, name: e.name, events: e.events })) };
    if (ctx.json) line(ctx.io.stdout, JSON.stringify(ready));
    else {
      line(ctx.io.stderr, `Forwarding the events of ${endpoints.map((e) => `“${e.name}”`).join(', ')} to ${targetUrl.href}`);
      line(ctx.io.stderr, `Signing secret: ${secret}`);
      line(ctx.io.stderr, '(verify with verifyWebhook(rawBody, headers, secret) from @herald/sdk). Ctrl-C to stop.');
    }

    let forwarded = 0;
    let stopped = false;
    const stop = ctx.interrupted.then(() => (stopped = true));
    while (!stopped) {
      for (const endpoint of endpoints) {
        let deliveries: Delivery[];
        try {
          deliveries = await read(endpoint.id);
        } catch (error) {
          if (error instanceof HeraldError && (error.status === 0 || error.status >= 500 || error.status === 429)) {
            if (!ctx.json) line(ctx.io.stderr, `warning: ${error.code}: ${error.message} (trying again)`);
            continue;
          }
          throw error;
        }
        const fresh = deliveries.filter((d) => !seen.has(d.id)).reverse();
        if (fresh.length === deliveries.length && deliveries.length === 50 && !ctx.json) {
          line(ctx.io.stderr, 'warning: more than 50 deliveries since the last read: some may have been skipped (lower --interval)');
        }
        for (const delivery of fresh) {
          seen.add(delivery.id);
          if (only.size && !only.has(delivery.event)) continue;
          const body = JSON.stringify(delivery.payload);
          // One event subscribed by several endpoints has one body: forwarded once.
          if (forwardedBodies.has(body)) continue;
          forwardedBodies.add(body);
          let status: number | null = null;
          let failure: string | null = null;
          try {
            const res = await fetch(targetUrl, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                'user-agent': 'herald-cli',
                'x-service-event': delivery.event,
                'x-service-delivery': delivery.id,
                'x-service-signature': createHmac('sha256', secret).update(body).digest('hex'),
              },
              body,
              redirect: 'manual',
              signal: AbortSignal.timeout(10_000),
            });
            status = res.status;
            await res.body?.cancel().catch(() => {});
          } catch (error) {
            const cause = (error as { cause?: { code?: string } }).cause;
            failure = cause?.code ?? (error as Error).message;
          }
          forwarded++;
          const time = new Date().toTimeString().slice(0, 8);
          say(`${time}  ${delivery.event.padEnd(24)} ${delivery.id}  → ${status ?? `failed: ${failure}`}`, {
            type: 'forwarded',
            event: delivery.event,
            deliveryId: delivery.id,
            endpointId: endpoint.id,
            status,
            error: failure,
          });
        }
      }
      await sleep(interval, stop);
    }
    if (ctx.json) line(ctx.io.stdout, JSON.stringify({ type: 'stopped', forwarded }));
    else line(ctx.io.stderr, `Stopped: ${forwarded} event${forwarded === 1 ? '' : 's'} forwarded.`);
  },
};
