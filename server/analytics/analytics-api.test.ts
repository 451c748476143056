// /sources, /ad-accounts and /metrics/* over HTTP, with the daily sync writing the readings:
// null semantics (no reading vs a zero reading), ratios, order, paging, parameter
// validation, tenant isolation, sync state and idempotency.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { sealToken } from '@/server/connections/token-sealing';
import { runnableJobs } from '@/server/runtime/job-handlers';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { fixture, startFakePlatformApi, type FakePlatformApi } from '@/server/platforms/testing/fake-platform-api';
import { metaInsightsSource } from './ad-platforms/meta';
import { sandboxReading } from './ad-platforms/sandbox';
import { syncAdAccount } from './sync';
import { createCaller } from '@/server/root';
import { createRequestContext } from '@/server/trpc/context';

const api = usePublicApi();
let fake: FakePlatformApi;
beforeAll(async () => {
  fake = await startFakePlatformApi();
});
afterAll(async () => {
  await fake.close();
  vi.unstubAllEnvs();
});

const day = (d: string) => new Date(`${d}T00:00:00Z`);

async function accountWith(
  rows: { day: string; impressions?: number | null; reach?: number | null; clicks?: number | null; spend?: string | null; conversions?: number | null }[],
) {
  const w = await createWorkspaceWithKey();
  const account = await db.adAccount.create({
    data: { workspaceId: w.workspace.id, source: 'meta', externalId: 'act_42', name: 'Main account', currency: 'EUR' },
  });
  const collectedAt = new Date('2026-11-10T03:15:00Z');
  for (const r of rows) {
    await db.adMetricDaily.create({
      data: {
        accountId: account.id,
        workspaceId: w.workspace.id,
        day: day(r.day),
        impressions: r.impressions === undefined || r.impressions === null ? null : BigInt(r.impressions),
        reach: r.reach === undefined || r.reach === null ? null : BigInt(r.reach),
        clicks: r.clicks === undefined || r.clicks === null ? null : BigInt(r.clicks),
        spend: r.spend ?? null,
        conversions: r.conversions ?? null,
        currency: 'EUR',
        source: 'meta',
        collectedAt,
      },
    });
  }
  return { ...w, account };
}

// Nov 1 a full reading, Nov 2 a reading of zero, Nov 3 no reading, Nov 4 a partial reading.
const ROWS = [
  { day: '2026-11-01', impressions: 1000, reach: 800, clicks: 20, spend: '10.00', conversions: 2 },
  { day: '2026-11-02', impressions: 0, reach: 0, clicks: 0, spend: '0', conversions: 0 },
  { day: '2026-11-04', impressions: 500, reach: null, clicks: null, spend: '4.50', conversions: null },
];

describe('GET /metrics/summary', () => {
  it('sums readings, keeps counters without any reading null, and takes ratios over days that read both parts', async () => {
    const w = await accountWith(ROWS);
    const res = await api('GET', `/metrics/summary?from=2026-11-01&to=2026-11-04&accountId=${w.account.id}`, { key: w.secret });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({
      accountId: w.account.id,
      from: '2026-11-01',
      to: '2026-11-04',
      days: 4,
      impressions: 1500,
      reach: 800,
      clicks: 20,
      spend: { amount: 14.5, currency: 'EUR' },
      conversions: 2,
      ctr: 0.02, // 20 / 1000: Nov 4 read no clicks
      cpc: 0.5, // 10 / 20
      cpm: 9.666667, // 14.5 / 1500 × 1000
    });
    expect(res.body.provenance).toEqual({
      source: 'meta',
      label: 'Meta Marketing API (ad account insights)',
      collectedAt: '2026-11-10T03:15:00.000Z',
      oldestCollectedAt: '2026-11-10T03:15:00.000Z',
      timeZone: 'UTC',
      window: { from: '2026-11-01', to: '2026-11-04' },
      daysWithReadings: 3,
    });
  });

  it('answers null, never 0, for a window without readings, and 0 for a reading of zero (ratios null)', async () => {
    const w = await accountWith(ROWS);
    const none = await api('GET', `/metrics/summary?from=2026-11-03&to=2026-11-03&accountId=${w.account.id}`, { key: w.secret });
    expect(none.body.data).toMatchObject({
      impressions: null,
      reach: null,
      clicks: null,
      spend: { amount: null, currency: 'EUR' },
      conversions: null,
      ctr: null,
      cpc: null,
      cpm: null,
    });
    expect(none.body.provenance).toMatchObject({ collectedAt: null, daysWithReadings: 0 });
    const zero = await api('GET', `/metrics/summary?from=2026-11-02&to=2026-11-02&accountId=${w.account.id}`, { key: w.secret });
    expect(zero.body.data).toMatchObject({
      impressions: 0,
      reach: 0,
      clicks: 0,
      spend: { amount: 0, currency: 'EUR' },
      conversions: 0,
      ctr: null,
      cpc: null,
      cpm: null,
    });
    expect(zero.body.provenance.daysWithReadings).toBe(1);
  });
});

describe('GET /metrics/daily', () => {
  it('answers every day of the window newest first, days without a reading included, and pages with nextTo', async () => {
    const w = await accountWith(ROWS);
    const res = await api('GET', `/metrics/daily?from=2026-11-01&to=2026-11-04&accountId=${w.account.id}&limit=10`, { key: w.secret });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((d) => d.date)).toEqual(['2026-11-04', '2026-11-03', '2026-11-02', '2026-11-01']);
    const [d4, d3, d2, d1] = res.body.data;
    expect(d4).toMatchObject({
      hasReading: true,
      impressions: 500,
      clicks: null,
      reach: null,
      spend: { amount: 4.5, currency: 'EUR' },
      ctr: null,
      cpc: null,
      cpm: 9,
    });
    expect(d3).toMatchObject({
      hasReading: false,
      collectedAt: null,
      impressions: null,
      reach: null,
      clicks: null,
      spend: { amount: null },
      conversions: null,
      ctr: null,
      cpc: null,
      cpm: null,
    });
    expect(d2).toMatchObject({ hasReading: true, impressions: 0, clicks: 0, spend: { amount: 0 }, conversions: 0, ctr: null, cpc: null, cpm: null });
    expect(d1).toMatchObject({ hasReading: true, impressions: 1000, clicks: 20, ctr: 0.02, cpc: 0.5, cpm: 10 });
    expect(res.body.nextTo).toBeNull();
    expect(res.body.provenance).toMatchObject({ source: 'meta', daysWithReadings: 3, collectedAt: '2026-11-10T03:15:00.000Z' });

    const page1 = await api('GET', `/metrics/daily?from=2026-11-01&to=2026-11-04&accountId=${w.account.id}&limit=2`, { key: w.secret });
    expect(page1.body.data.map((d) => d.date)).toEqual(['2026-11-04', '2026-11-03']);
    expect(page1.body.nextTo).toBe('2026-11-02');
    const page2 = await api('GET', `/metrics/daily?from=2026-11-01&to=${page1.body.nextTo}&accountId=${w.account.id}&limit=2`, { key: w.secret });
    expect(page2.body.data.map((d) => d.date)).toEqual(['2026-11-02', '2026-11-01']);
    expect(page2.body.nextTo).toBeNull();
  });
});

describe('query parameters', () => {
  const base = (id: string) => ({ from: '2026-11-01', to: '2026-11-04', accountId: id, limit: '10' });
  it.each([
    ['summary', { from: undefined }, 'from'],
    ['summary', { to: undefined }, 'to'],
    ['summary', { accountId: undefined }, 'accountId'],
    ['summary', { from: '2026-11-31' }, 'from'],
    ['summary', { from: '01/11/2026' }, 'from'],
    ['summary', { from: '0000-01-01', to: '0000-01-02' }, 'from'],
    ['summary', { to: '2026-11-01T00:00:00Z' }, 'to'],
    ['summary', { from: '2026-11-05' }, 'to'],
    ['summary', { from: '2025-11-01', to: '2026-11-02' }, 'to'],
    ['summary', { accountId: 'act_42' }, 'accountId'],
    ['summary', { currency: 'EUR' }, 'currency'],
    ['daily', { limit: undefined }, 'limit'],
    ['daily', { limit: '0' }, 'limit'],
    ['daily', { limit: '101' }, 'limit'],
    ['daily', { limit: '2.5' }, 'limit'],
  ] as const)('/metrics/%s with %j answers VALIDATION_FAILED naming %s', async (route, change, field) => {
    const w = await accountWith([]);
    const params = { ...base(w.account.id), ...change } as Record<string, string | undefined>;
    if (route === 'summary') delete params.limit;
    const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();
    const res = await api('GET', `/metrics/${route}?${query}`, { key: w.secret });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field });
  });

  it('accepts a window of exactly 366 days and limit 1 and 100', async () => {
    const w = await accountWith(ROWS);
    expect((await api('GET', `/metrics/summary?from=2025-11-04&to=2026-11-04&accountId=${w.account.id}`, { key: w.secret })).status).toBe(200);
    for (const limit of [1, 100]) {
      const res = await api('GET', `/metrics/daily?from=2025-11-04&to=2026-11-04&accountId=${w.account.id}&limit=${limit}`, { key: w.secret });
      expect(res.body.data).toHaveLength(limit);
    }
  });
});

describe('tenant isolation and scope', () => {
  it('finds no ad account of another workspace', async () => {
    const a = await accountWith(ROWS);
    const b = await accountWith(ROWS);
    for (const path of [
      `/metrics/summary?from=2026-11-01&to=2026-11-04&accountId=${a.account.id}`,
      `/metrics/daily?from=2026-11-01&to=2026-11-04&accountId=${a.account.id}&limit=5`,
    ]) {
      const res = await api('GET', path, { key: b.secret });
      expect(res.status, path).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'AD_ACCOUNT_NOT_FOUND', field: 'accountId' });
    }
    const listed = await api('GET', '/ad-accounts', { key: b.secret });
    expect(listed.body.data.map((x) => x.id)).toEqual([b.account.id]);
  });

  it('needs analytics:read on every analytics route', async () => {
    const w = await createWorkspaceWithKey({ scopes: ['posts:read', 'connections:read'] });
    for (const path of [
      '/sources',
      '/ad-accounts',
      '/metrics/summary?from=2026-11-01&to=2026-11-01&accountId=00000000-0000-4000-8000-000000000000',
      '/best-times',
    ]) {
      const res = await api('GET', path, { key: w.secret });
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe('SCOPE_MISSING');
    }
  });
});

describe('GET /sources', () => {
  it('lists each ad platform, the sandbox and the crawler with their provenance rules', async () => {
    const w = await createWorkspaceWithKey();
    const res = await api('GET', '/sources', { key: w.secret });
    expect(res.status).toBe(200);
    expect(res.body.data.map((s) => s.id)).toEqual([
      'meta',
      'linkedin',
      'google',
      'sandbox',
      'post_insights',
      'crawler',
      'publish_history',
      'platform_defaults',
      'connections',
      'herald',
    ]);
    const sandbox = res.body.data.find((s) => s.id === 'sandbox')!;
    expect(sandbox.name).toContain('demo data');
    for (const s of res.body.data) expect(s.provenance.nullMeans.length).toBeGreaterThan(10);
    expect(res.body.provenance).toMatchObject({ source: 'herald' });
    expect(res.body.provenance.collectedAt).not.toBeNull();
  });
});

describe('the daily sync', () => {
  it('writes what the platform reported, idempotently per account and day, and records its state', async () => {
    const w = await createWorkspaceWithKey();
    const account = await db.adAccount.create({
      data: { workspaceId: w.workspace.id, source: 'meta', externalId: '1234567890', name: 'Meta account', currency: 'EUR', accessToken: sealToken('tok-abc') },
    });
    fake.on('GET', '/v25.0/act_1234567890/insights', (req) => ({
      json: fixture(`${import.meta.dirname}/ad-platforms`, req.query.get('after') ? 'meta-insights-page2' : 'meta-insights-page1'),
    }));
    const source = metaInsightsSource({ fetch: fake.fetch, baseUrl: `${fake.baseUrl}/v25.0` });
    const now = new Date('2026-11-05T03:15:00Z');
    const first = await syncAdAccount(account.id, { source, from: '2026-11-01', to: '2026-11-04', now });
    expect(first).toMatchObject({ ok: true, days: 3 });
    expect(fake.requests[0]!.query.get('access_token')).toBe('tok-abc'); // opened from its sealed form

    const rows = () => db.adMetricDaily.findMany({ where: { accountId: account.id }, orderBy: { day: 'asc' } });
    const once = await rows();
    await syncAdAccount(account.id, { source, from: '2026-11-01', to: '2026-11-04', now });
    const twice = await rows();
    expect(twice).toEqual(once);
    expect(twice.map((r) => r.day.toISOString().slice(0, 10))).toEqual(['2026-11-01', '2026-11-02', '2026-11-04']);

    const summary = await api('GET', `/metrics/summary?from=2026-11-01&to=2026-11-04&accountId=${account.id}`, { key: w.secret });
    expect(summary.body.data).toMatchObject({ impressions: 20326, reach: 8123, clicks: 392, conversions: 6 });

    // The platform stops reporting a day: the rewrite removes it (no reading), others untouched.
    fake.on('GET', '/v25.0/act_1234567890/insights', { json: { data: [fixture(`${import.meta.dirname}/ad-platforms`, 'meta-insights-page1').data[0]] } });
    await syncAdAccount(account.id, { source, from: '2026-11-02', to: '2026-11-04', now });
    expect((await rows()).map((r) => r.day.toISOString().slice(0, 10))).toEqual(['2026-11-01']);

    const listed = await api('GET', '/ad-accounts', { key: w.secret });
    expect(listed.body.data[0]).toMatchObject({
      id: account.id,
      source: 'meta',
      sync: { status: 'ok', lastSyncAt: now.toISOString(), lastSuccessAt: now.toISOString(), lastError: null, syncedThrough: '2026-11-04' },
      provenance: { source: 'meta', collectedAt: now.toISOString() },
    });
  });

  it('records a failed sync on the account, verbatim, and keeps the readings it had', async () => {
    const w = await createWorkspaceWithKey();
    const account = await db.adAccount.create({
      data: { workspaceId: w.workspace.id, source: 'meta', externalId: '77', name: 'Throttled', currency: 'EUR', accessToken: sealToken('tok') },
    });
    await db.adMetricDaily.create({
      data: {
        accountId: account.id,
        workspaceId: w.workspace.id,
        day: day('2026-11-01'),
        impressions: 5n,
        currency: 'EUR',
        source: 'meta',
        collectedAt: new Date(),
      },
    });
    fake.on('GET', '/v25.0/act_77/insights', { status: 400, json: fixture(`${import.meta.dirname}/ad-platforms`, 'meta-error-rate-limit') });
    const result = await syncAdAccount(account.id, {
      source: metaInsightsSource({ fetch: fake.fetch, baseUrl: `${fake.baseUrl}/v25.0` }),
      from: '2026-11-01',
      to: '2026-11-02',
    });
    expect(result).toMatchObject({ ok: false, error: 'Meta API error 17/2446079: (#17) User request limit reached' });
    expect(await db.adMetricDaily.count({ where: { accountId: account.id } })).toBe(1);
    const listed = await api('GET', '/ad-accounts', { key: w.secret });
    expect(listed.body.data[0]!.sync).toMatchObject({
      status: 'error',
      lastError: 'Meta API error 17/2446079: (#17) User request limit reached',
      lastSuccessAt: null,
    });
    expect(listed.body.data[0]!.sync.lastErrorAt).not.toBeNull();

    // The workspace is told when the account starts failing, once: the next failing run is quiet.
    await syncAdAccount(account.id, {
      source: metaInsightsSource({ fetch: fake.fetch, baseUrl: `${fake.baseUrl}/v25.0` }),
      from: '2026-11-01',
      to: '2026-11-02',
    });
    const notices = await db.notification.findMany({ where: { workspaceId: w.workspace.id } });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      kind: 'sync.failed',
      title: 'Ad account “Throttled” stopped syncing',
      body: 'Meta API error 17/2446079: (#17) User request limit reached',
      data: { accountId: account.id },
    });
  });

  it('runs as the analytics.sync-account job for a sandbox account, naming the sandbox in provenance', async () => {
    const w = await createWorkspaceWithKey();
    const account = await db.adAccount.create({
      data: { workspaceId: w.workspace.id, source: 'sandbox', externalId: 'sbx-ads-test', name: 'Demo ads', currency: 'USD' },
    });
    const job = runnableJobs.find((j) => j.name === 'analytics.sync-account')!;
    await job.handler({ accountId: account.id }, { attempt: 1, maxAttempts: 1, signal: new AbortController().signal });
    await job.handler({ accountId: account.id }, { attempt: 1, maxAttempts: 1, signal: new AbortController().signal });
    const stored = await db.adMetricDaily.findMany({ where: { accountId: account.id }, orderBy: { day: 'desc' } });
    expect(stored.length).toBeGreaterThan(40); // 60 days back on the first sync, some without a reading
    expect(stored.length).toBeLessThan(60);
    const newest = stored[0]!.day.toISOString().slice(0, 10);
    expect(Number(stored[0]!.impressions)).toBe(sandboxReading('sbx-ads-test', newest, 'USD')!.impressions);
    const res = await api('GET', `/metrics/summary?from=${newest}&to=${newest}&accountId=${account.id}`, { key: w.secret });
    expect(res.body.provenance).toMatchObject({ source: 'sandbox', label: expect.stringContaining('demo data') });
  });
});

describe('the workspace time zone', () => {
  it('is set in the settings and is the calendar of the metrics windows', async () => {
    const w = await accountWith(ROWS);
    const user = await db.user.create({ data: { email: `tz-${w.workspace.id}@example.com` } });
    await db.membership.create({ data: { userId: user.id, workspaceId: w.workspace.id, role: 'owner' } });
    const staff = createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(), staffUserId: user.id }));
    expect((await staff.settings.update({ timeZone: 'europe/berlin' })).data.timeZone).toBe('Europe/Berlin');
    await expect(staff.settings.update({ timeZone: 'Mars/Olympus' })).rejects.toMatchObject({ message: expect.stringContaining('time zone') });
    const res = await api('GET', `/metrics/summary?from=2026-11-01&to=2026-11-04&accountId=${w.account.id}`, { key: w.secret });
    expect(res.body.provenance.timeZone).toBe('Europe/Berlin');
  });
});

describe('ad accounts are managed by staff in the app', () => {
  async function staffOf(workspaceId: string) {
    const user = await db.user.create({ data: { email: `ads-${workspaceId}@example.com` } });
    await db.membership.create({ data: { userId: user.id, workspaceId, role: 'owner' } });
    return createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(), staffUserId: user.id }));
  }
  const queued = (accountId: string) =>
    db.$queryRaw<
      { key: string }[]
    >`SELECT key FROM graphile_worker.jobs WHERE task_identifier = 'analytics.sync-account' AND key LIKE ${`ad-sync:${accountId}:%`}`;

  it('adds an account with its token sealed, queues its first sync, and removes it with its readings', async () => {
    const w = await createWorkspaceWithKey();
    const staff = await staffOf(w.workspace.id);
    const { data } = await staff.analytics.addAdAccount({ source: 'meta', externalId: '555', name: 'Shop ads', currency: 'EUR', accessToken: 'meta-token-1' });
    expect(data).toMatchObject({ source: 'meta', externalId: '555', currency: 'EUR', sync: { status: 'never', lastSyncAt: null } });
    const row = await db.adAccount.findUniqueOrThrow({ where: { id: data.id } });
    expect(row.accessToken).not.toContain('meta-token-1');
    expect(await queued(data.id)).toHaveLength(1);
    await staff.analytics.syncAdAccountNow({ id: data.id }); // same day: replaces, not adds
    expect(await queued(data.id)).toHaveLength(1);

    await expect(staff.analytics.addAdAccount({ source: 'meta', externalId: '555', name: 'again', currency: 'EUR', accessToken: 't' })).rejects.toMatchObject({
      message: expect.stringContaining('already connected'),
    });
    await expect(staff.analytics.addAdAccount({ source: 'linkedin', externalId: '1', name: 'x', currency: 'USD' })).rejects.toMatchObject({
      message: expect.stringContaining('needs its access token'),
    });
    const keyCaller = createCaller(createRequestContext({ transport: 'trpc', headers: new Headers({ authorization: `Bearer ${w.secret}` }) }));
    await expect(keyCaller.analytics.addAdAccount({ source: 'sandbox', externalId: 's', name: 's', currency: 'USD' })).rejects.toMatchObject({
      message: expect.stringContaining('member'),
    });

    const other = await createWorkspaceWithKey();
    const otherStaff = await staffOf(other.workspace.id);
    await expect(otherStaff.analytics.removeAdAccount({ id: data.id })).rejects.toMatchObject({ message: expect.stringContaining('No ad account') });
    await expect(otherStaff.analytics.syncAdAccountNow({ id: data.id })).rejects.toMatchObject({ message: expect.stringContaining('No ad account') });

    await db.adMetricDaily.create({
      data: {
        accountId: data.id,
        workspaceId: w.workspace.id,
        day: day('2026-11-01'),
        impressions: 1n,
        currency: 'EUR',
        source: 'meta',
        collectedAt: new Date(),
      },
    });
    await staff.analytics.removeAdAccount({ id: data.id });
    expect(await db.adMetricDaily.count({ where: { accountId: data.id } })).toBe(0);
    expect((await api('GET', '/ad-accounts', { key: w.secret })).body.data).toEqual([]);
  });

  it('the daily cron queues one sync per account and day', async () => {
    const { enqueueAdSyncs } = await import('./sync');
    const w = await createWorkspaceWithKey();
    const a = await db.adAccount.create({ data: { workspaceId: w.workspace.id, source: 'sandbox', externalId: 'cron-a', name: 'a', currency: 'USD' } });
    const now = new Date('2026-11-20T03:15:00Z');
    await enqueueAdSyncs(now);
    await enqueueAdSyncs(now);
    expect((await queued(a.id)).map((j) => j.key)).toEqual([`ad-sync:${a.id}:2026-11-20`]);
    await enqueueAdSyncs(new Date('2026-11-21T03:15:00Z'));
    expect((await queued(a.id)).map((j) => j.key).sort()).toEqual([`ad-sync:${a.id}:2026-11-20`, `ad-sync:${a.id}:2026-11-21`]);
  });
});
