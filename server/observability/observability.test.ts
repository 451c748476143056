// Request ids and log lines: a request's id is echoed, logged with everything it causes, and
// carried by its events into the webhook deliveries that follow them.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { drainOutbox } from '@/server/events/drain-outbox';
import { usePublicApi } from '@/server/testing/public-api';
import { publishingWorkspace, inMinutes } from '@/server/testing/posts-fixtures';
import { createEndpoint } from '@/server/webhooks/endpoints';
import { fanOutToWebhooks } from '@/server/webhooks/deliveries';
import { log, withLogContext } from './log';

const api = usePublicApi();
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

function captured(stream: 'stdout' | 'stderr') {
  const lines: string[] = [];
  vi.spyOn(process[stream], 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
}

describe('log lines', () => {
  it('are one JSON object per line with the context’s request id and the error', () => {
    const err = captured('stderr');
    const out = captured('stdout');
    withLogContext({ requestId: 'req-1', job: 'outbox.drain#1' }, () => {
      log.info('posts', 'scheduled', { postId: 'p1' });
      log.warn('webhooks', 'attempt failed', new Error('connect ECONNREFUSED'));
    });
    const info = JSON.parse(out[0]!);
    expect(info).toMatchObject({ level: 'info', component: 'posts', msg: 'scheduled', requestId: 'req-1', job: 'outbox.drain#1', postId: 'p1' });
    expect(new Date(info.time).getTime()).not.toBeNaN();
    expect(JSON.parse(err[0]!)).toMatchObject({ level: 'warn', requestId: 'req-1', error: { name: 'Error', message: 'connect ECONNREFUSED' } });
  });

  it('print `[component] message` with LOG_FORMAT=text', () => {
    vi.stubEnv('LOG_FORMAT', 'text');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    log.warn('media', 'storage unavailable');
    expect(warn).toHaveBeenCalledWith('[media] storage unavailable');
  });
});

describe('request ids', () => {
  it('echo the client’s X-Request-Id, or a new one; an insane one is replaced', async () => {
    const { secret } = await publishingWorkspace();
    const given = await api('GET', '/posts', { key: secret, headers: { 'x-request-id': 'client-abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('client-abc-123');
    const fresh = await api('GET', '/posts', { key: secret });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const insane = await api('GET', '/posts', { key: secret, headers: { 'x-request-id': 'x'.repeat(200) } });
    expect(insane.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await api('GET', '/posts', { headers: { 'x-request-id': 'no-key' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toBe('no-key');
  });

  it('follow a request into its events and the webhook deliveries fanned out from them', async () => {
    vi.stubEnv('OUTBOUND_ALLOW_HOSTS', '127.0.0.1');
    const w = await publishingWorkspace();
    await createEndpoint(w.workspace.id, { name: 'trace', url: 'https://127.0.0.1:9/hook', events: ['post.scheduled'] });
    const res = await api('POST', '/posts', {
      key: w.secret,
      headers: { 'x-request-id': 'trace-me-42' },
      body: { content: 'Traced', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(30) },
    });
    expect(res.status).toBe(201);
    const event = await db.outboxEvent.findFirstOrThrow({ where: { workspaceId: w.workspace.id, type: 'post.scheduled' } });
    expect(event.requestId).toBe('trace-me-42');
    await drainOutbox({ consumers: [fanOutToWebhooks] });
    const delivery = await db.webhookDelivery.findFirstOrThrow({ where: { eventId: event.id } });
    expect(delivery.requestId).toBe('trace-me-42');
  });
});

describe('GET /api/metrics', () => {
  it('is off without METRICS_TOKEN, refuses a wrong token, and reports requests per route and the queue', async () => {
    const { handleMetrics } = await import('./metrics');
    const get = (auth?: string) => handleMetrics(new Request('http://localhost/api/metrics', { headers: auth ? { authorization: auth } : {} }));
    expect((await get()).status).toBe(404);
    vi.stubEnv('METRICS_TOKEN', 's3cret-token');
    expect((await get()).status).toBe(401);
    expect((await get('Bearer nope')).status).toBe(401);

    const w = await publishingWorkspace();
    await api('GET', '/posts', { key: w.secret });
    await api('GET', `/posts/00000000-0000-4000-8000-000000000000`, { key: w.secret });
    await db.post.create({
      data: {
        workspaceId: w.workspace.id,
        content: 'late',
        platforms: ['linkedin'],
        connectionIds: [w.ok.linkedin.id],
        status: 'scheduled',
        scheduledAt: new Date(Date.now() - 5 * 60_000),
      },
    });
    const res = await get('Bearer s3cret-token');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/herald_http_requests_total\{transport="rest",route="GET \/posts",status="200"\} [1-9]/);
    expect(text).toMatch(/herald_http_requests_total\{transport="rest",route="GET \/posts\/\{id\}",status="404"\} [1-9]/);
    expect(text).toMatch(/herald_http_request_duration_seconds_bucket\{le="0.005",transport="rest",route="GET \/posts"\}/);
    expect(text).toMatch(/^herald_posts_overdue [1-9]/m);
    expect(text).toMatch(/^herald_outbox_pending \d+/m);
    expect(text).toMatch(/^herald_webhook_deliveries_last_hour\{status="pending"\} [1-9]/m);
    expect(text).toMatch(/^herald_webhook_endpoints_paused 0/m);
    expect(text).toMatch(/^herald_jobs_due \d+/m);
    expect(text).toMatch(/^herald_process_resident_memory_bytes /m);
  });
});
