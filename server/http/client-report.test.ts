// The client report link (Herald extension): POST /workspaces/{id}/report-url (scope, body,
// another agency's client), resolving the link (expired, revoked, detach, another kind's
// token), the report's numbers against seeded readings (null, never 0, where nothing was read;
// days on the workspace's clock), and the PDF opened with a real PDF text extractor.
import { PDFDocument } from 'pdf-lib';
import { PDFParse } from 'pdf-parse';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { engagementOf } from '@/server/analytics/post-metrics/engagement';
import { db } from '@/server/db/client';
import type { PostMetricName } from '@/server/platforms/insights';
import { HEADERS } from '@/server/shared/headers';
import { useClientLinkApi } from '@/server/testing/client-link-api';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';

const { api, raw, origin } = useClientLinkApi();
afterEach(() => vi.unstubAllEnvs());
const tokenOf = (url: string) => url.split('/').at(-1)!;
const RANGE = { from: '2026-03-01', to: '2026-03-05' };

async function agencyWithClient(name = 'Client Co') {
  const agency = await createWorkspaceWithKey();
  const clientId = (await api('POST', '/workspaces', { key: agency.secret, body: { name } })).body.data.id as string;
  return { agency, clientId };
}

async function reportLink(agencySecret: string, clientId: string, body: Record<string, unknown> = {}) {
  const res = await api('POST', `/workspaces/${clientId}/report-url`, { key: agencySecret, body: { ...RANGE, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return tokenOf(res.body.data.url);
}

type Reading = Partial<Record<PostMetricName, number | null>>;

/** A published post on the given connections, each target with its reading (or none). */
async function published(
  workspaceId: string,
  at: string,
  targets: { connection: { id: string; platform: string }; reading?: Reading }[],
  content = 'A post',
  mediaUrl?: string,
) {
  const publishedAt = new Date(at);
  const post = await db.post.create({
    data: {
      workspaceId,
      content,
      mediaUrls: mediaUrl ? [mediaUrl] : [],
      media: mediaUrl ? [{ url: mediaUrl, kind: 'image' }] : [],
      platforms: targets.map((t) => t.connection.platform),
      connectionIds: targets.map((t) => t.connection.id),
      status: 'published',
      scheduledAt: publishedAt,
      publishedAt,
      targets: {
        create: targets.map((t, i) => ({
          connectionId: t.connection.id,
          platform: t.connection.platform,
          status: 'published',
          postedId: `sbx-${crypto.randomUUID()}`,
          permalink: `https://social.test/${t.connection.platform}/${i}-${crypto.randomUUID()}`,
          attempts: 1,
          publishedAt,
        })),
      },
    },
    include: { targets: { orderBy: { platform: 'asc' } } },
  });
  for (const t of targets) {
    if (!t.reading) continue;
    const target = post.targets.find((x) => x.connectionId === t.connection.id)!;
    const nulls = Object.fromEntries(
      Object.entries(t.reading)
        .filter(([, v]) => v === null)
        .map(([k]) => [k, 'not offered']),
    );
    await db.postMetricReading.create({
      data: {
        targetId: target.id,
        workspaceId,
        connectionId: t.connection.id,
        platform: t.connection.platform,
        trigger: 'seed',
        source: t.connection.platform,
        collectedAt: new Date(publishedAt.getTime() + 86_400_000),
        ...t.reading,
        engagement: engagementOf(t.reading),
        nullReasons: nulls,
      },
    });
  }
  return post;
}

/** Two posts in the range (one read on two networks, one never read), one outside it, one the day before on the workspace's clock. */
async function seededClient() {
  const { agency, clientId } = await agencyWithClient('Client Co');
  await db.workspace.update({ where: { id: clientId }, data: { timeZone: 'America/New_York' } });
  const ig = await createSandboxConnection(clientId, { platform: 'instagram' });
  const li = await createSandboxConnection(clientId, { platform: 'linkedin' });
  const igConn = { id: ig.id, platform: 'instagram' };
  const liConn = { id: li.id, platform: 'linkedin' };
  const launch = await published(
    clientId,
    '2026-03-02T14:00:00Z',
    [
      { connection: igConn, reading: { impressions: 1000, reach: 800, views: null, reactions: 50, comments: 5, shares: 3, saves: 2 } },
      { connection: liConn, reading: { impressions: 500, reach: null, views: null, reactions: 10, comments: 1, shares: 1, saves: null } },
    ],
    'Spring launch: our new menu 🌱',
    'https://media.test/launch.jpg',
  );
  const unread = await published(clientId, '2026-03-03T15:00:00Z', [{ connection: igConn }], 'Behind the scenes');
  await published(clientId, '2026-03-10T15:00:00Z', [{ connection: igConn, reading: { impressions: 9999, reactions: 999 } }], 'Later');
  // 03:00 UTC on 1 March is still 28 February in New York: outside the range.
  await published(clientId, '2026-03-01T03:00:00Z', [{ connection: igConn, reading: { impressions: 7777, reactions: 777 } }], 'Late night');
  return { agency, clientId, launch, unread };
}

describe('POST /workspaces/{id}/report-url', () => {
  it('issues a /report/ link like review-url; checks the range, the scope, the header and whose client it is', async () => {
    const { agency, clientId } = await agencyWithClient();
    const res = await api('POST', `/workspaces/${clientId}/report-url`, { key: agency.secret, body: { ...RANGE, title: 'March', expiresInDays: 30 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: { url: expect.stringMatching(/\/report\/[A-Za-z0-9_-]{43}$/), expiresAt: expect.any(String), rotated: false },
      warnings: [],
    });
    const row = await db.clientLink.findFirstOrThrow({ where: { workspaceId: clientId, kind: 'report' } });
    expect([row.reportFrom?.toISOString().slice(0, 10), row.reportTo?.toISOString().slice(0, 10), row.reportTitle]).toEqual([RANGE.from, RANGE.to, 'March']);

    const refused = async (body: Record<string, unknown>) => {
      const r = await api('POST', `/workspaces/${clientId}/report-url`, { key: agency.secret, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      return r.body;
    };
    expect(JSON.stringify(await refused({ from: '2026-03-05', to: '2026-03-01' }))).toContain('must not be before from');
    expect(JSON.stringify(await refused({ from: '2025-01-01', to: '2026-01-02' }))).toContain('366');
    await refused({ from: '2026-02-30', to: '2026-03-01' });
    await refused({ to: '2026-03-01' });
    await refused({ ...RANGE, expiresInDays: 91 });
    await refused({ ...RANGE, title: '' });
    await refused({ ...RANGE, brand: { logoUrl: 'http://insecure.test/l.png' } });
    // A full leap year is allowed.
    expect((await api('POST', `/workspaces/${clientId}/report-url`, { key: agency.secret, body: { from: '2024-01-01', to: '2024-12-31' } })).status).toBe(201);

    const other = await createWorkspaceWithKey();
    expect((await api('POST', `/workspaces/${clientId}/report-url`, { key: other.secret, body: RANGE })).body.error.code).toBe('WORKSPACE_NOT_FOUND');
    const reader = await api('POST', `/workspaces/${clientId}/api-keys`, { key: agency.secret, body: { name: 'r', scopes: ['analytics:read'] } });
    expect((await api('POST', `/workspaces/${clientId}/report-url`, { key: reader.body.data.secret, body: RANGE })).body.error.code).toBe('SCOPE_MISSING');
    const header = await api('POST', `/workspaces/${clientId}/report-url`, { key: agency.secret, body: RANGE, headers: { [HEADERS.workspace]: clientId } });
    expect(header.body.error.code).toBe('WORKSPACE_HEADER_NOT_ALLOWED');
    // Listed with the other links, as a report link.
    const links = await api('GET', `/workspaces/${clientId}/links`, { key: agency.secret });
    expect((links.body.data as { kind: string }[]).map((l) => l.kind)).toEqual(['report', 'report']);
  });

  it('rotation revokes earlier report links only', async () => {
    const { agency, clientId } = await agencyWithClient();
    const review = tokenOf((await api('POST', `/workspaces/${clientId}/review-url`, { key: agency.secret, body: {} })).body.data.url);
    const first = await reportLink(agency.secret, clientId);
    const second = await reportLink(agency.secret, clientId, { rotate: true });
    expect((await raw('GET', `/public/report/${first}`)).body.error.code).toBe('CONNECT_TOKEN_INVALID');
    expect((await raw('GET', `/public/report/${second}`)).status).toBe(200);
    expect((await raw('GET', `/public/review/${review}`)).status).toBe(200);
  });
});

describe('resolving a report link', () => {
  it('answers expired, revoked and detached links as review does, on the JSON route and the PDF alike', async () => {
    const { agency, clientId } = await agencyWithClient();
    const expired = await reportLink(agency.secret, clientId, { expiresInDays: 1 });
    await db.clientLink.updateMany({ where: { workspaceId: clientId, kind: 'report' }, data: { expiresAt: new Date(Date.now() - 1000) } });
    for (const path of [`/public/report/${expired}`, `/public/report/${expired}/pdf`]) {
      const res = await raw('GET', path);
      expect(res.status, path).toBe(410);
      expect(res.body.error.code).toBe('CONNECT_TOKEN_EXPIRED');
    }

    const revoked = await reportLink(agency.secret, clientId);
    const row = await db.clientLink.findFirstOrThrow({ where: { workspaceId: clientId, kind: 'report', revokedAt: null, expiresAt: { gt: new Date() } } });
    expect((await api('DELETE', `/workspaces/${clientId}/links/${row.id}`, { key: agency.secret })).status).toBe(204);
    for (const path of [`/public/report/${revoked}`, `/public/report/${revoked}/pdf`]) {
      const res = await raw('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('CONNECT_TOKEN_INVALID');
    }

    const live = await reportLink(agency.secret, clientId);
    const review = tokenOf((await api('POST', `/workspaces/${clientId}/review-url`, { key: agency.secret, body: {} })).body.data.url);
    // A link of one kind opens nothing of another.
    expect((await raw('GET', `/public/report/${review}`)).body.error.code).toBe('CONNECT_TOKEN_INVALID');
    expect((await raw('GET', `/public/review/${live}`)).body.error.code).toBe('CONNECT_TOKEN_INVALID');
    expect((await raw('GET', `/public/report/not-a-token`)).body.error.code).toBe('CONNECT_TOKEN_INVALID');
    expect((await raw('POST', `/public/report/${live}`)).body.error.code).toBe('ROUTE_NOT_FOUND');

    expect((await raw('GET', `/public/report/${live}`)).status).toBe(200);
    expect((await api('DELETE', `/workspaces/${clientId}`, { key: agency.secret })).status).toBe(204);
    expect((await raw('GET', `/public/report/${live}`)).body.error.code).toBe('CONNECT_TOKEN_INVALID');
    expect((await db.clientLink.findMany({ where: { workspaceId: clientId, kind: 'report', revokedAt: null } })).length).toBe(0);
  });

  it('is rate limited per link, the PDF included, like review', async () => {
    vi.stubEnv('CLIENT_LINK_RATE_LIMIT_PER_MINUTE', '3');
    const { agency, clientId } = await agencyWithClient();
    const token = await reportLink(agency.secret, clientId);
    const statuses: number[] = [];
    for (const path of ['', '/pdf', '', '/pdf', '']) statuses.push((await raw('GET', `/public/report/${token}${path}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });
});

describe('GET /public/report/{token}', () => {
  it('totals the range’s published posts on the workspace’s clock, null (never 0) where nothing was read', async () => {
    const { agency, clientId, launch, unread } = await seededClient();
    const token = await reportLink(agency.secret, clientId, { brand: { name: 'Northwind' } });
    const res = await raw('GET', `/public/report/${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const data = res.body.data;
    expect(data.workspace).toMatchObject({ id: clientId, name: 'Client Co', timeZone: 'America/New_York' });
    expect(data.brand).toEqual({ name: 'Northwind', logoUrl: null });
    expect(data.title).toBe('Results for Client Co');
    expect(data.range).toEqual({ ...RANGE, timeZone: 'America/New_York' });
    expect(data.headline).toEqual({
      posts: 2,
      targets: 3,
      targetsWithReading: 2,
      postsWithReading: 1,
      engagement: 72,
      impressions: 1500,
      reach: 800,
      views: null,
      reactions: 60,
      comments: 6,
      shares: 4,
      saves: 2,
      linkClicks: null,
      clicks: 0,
      coverage: '1 of 2 posts had a reading',
    });
    expect(
      data.networks.map((n: { platform: string; targets: number; engagement: number | null; reach: number | null; views: number | null }) => [
        n.platform,
        n.targets,
        n.engagement,
        n.reach,
        n.views,
      ]),
    ).toEqual([
      ['instagram', 2, 60, 800, null],
      ['linkedin', 1, 12, null, null],
    ]);
    expect(data.days.map((d: { date: string; targets: number; engagement: number | null }) => [d.date, d.targets, d.engagement])).toEqual([
      ['2026-03-01', 0, null],
      ['2026-03-02', 2, 72],
      ['2026-03-03', 1, null],
      ['2026-03-04', 0, null],
      ['2026-03-05', 0, null],
    ]);
    expect(data.topPosts).toHaveLength(2);
    expect(data.topPosts[0]).toMatchObject({
      rank: 1,
      postId: launch.id,
      platform: 'instagram',
      mediaUrls: ['https://media.test/launch.jpg'],
      media: [{ url: 'https://media.test/launch.jpg', kind: 'image' }],
      permalink: expect.stringMatching(/^https:\/\/social\.test\/instagram\//),
      latest: { engagement: 60, metrics: { views: null, impressions: 1000 } },
    });
    expect(data.topPosts[1]).toMatchObject({ rank: 2, platform: 'linkedin', latest: { engagement: 12 } });
    expect(data.published.map((p: { postId: string; targets: unknown[] }) => [p.postId, p.targets.length])).toEqual([
      [launch.id, 2],
      [unread.id, 1],
    ]);
    expect(data.published[1].targets[0]).toMatchObject({ platform: 'instagram', hasReading: false, engagement: null });
    expect(data.provenance).toMatchObject({ postsInWindow: 3, withReading: 2, window: RANGE });
  });

  it('a range with nothing read reports null, not 0; an empty range reports zero posts', async () => {
    const { agency, clientId } = await agencyWithClient();
    const ig = await createSandboxConnection(clientId, { platform: 'instagram' });
    await published(clientId, '2026-03-02T14:00:00Z', [{ connection: { id: ig.id, platform: 'instagram' } }]);
    const data = (await raw('GET', `/public/report/${await reportLink(agency.secret, clientId, { title: 'March so far' })}`)).body.data;
    expect(data.title).toBe('March so far');
    expect(data.headline).toMatchObject({
      posts: 1,
      targets: 1,
      engagement: null,
      impressions: null,
      reach: null,
      views: null,
      coverage: '0 of 1 post had a reading',
    });
    expect(data.topPosts).toEqual([]);
    const empty = (await raw('GET', `/public/report/${await reportLink(agency.secret, clientId, { from: '2025-01-01', to: '2025-01-31' })}`)).body.data;
    expect(empty.headline).toMatchObject({ posts: 0, targets: 0, engagement: null, coverage: '0 of 0 posts had a reading' });
    expect(empty.days).toHaveLength(31);
    expect(empty.published).toEqual([]);
  });
});

describe('GET /public/report/{token}/pdf', () => {
  async function pdfOf(token: string) {
    const res = await fetch(`${origin()}/public/report/${token}/pdf`, { headers: { 'x-forwarded-for': `10.8.${Math.floor(Math.random() * 250)}.1` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="report-2026-03-01-to-2026-03-05\.pdf"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const libraryPages = (await PDFDocument.load(bytes)).getPageCount();
    // The extractor takes its copy's buffer away.
    const parser = new PDFParse({ data: bytes.slice() });
    try {
      const text = await parser.getText();
      return { text: text.text, pages: text.total, libraryPages };
    } finally {
      await parser.destroy();
    }
  }

  it('opens as a PDF with the brand, the workspace’s name, the range and the headline numbers in its text', async () => {
    const { agency, clientId } = await seededClient();
    const pdf = await pdfOf(await reportLink(agency.secret, clientId, { brand: { name: 'Northwind' } }));
    // Headline, chart, networks and top posts on the first page; the published list flows onto the second.
    expect(pdf.pages).toBe(2);
    expect(pdf.libraryPages).toBe(2);
    expect(pdf.text).toContain('Client Co');
    expect(pdf.text).toContain('Northwind');
    expect(pdf.text).toContain('2026-03-01 to 2026-03-05');
    expect(pdf.text).toContain('1,500'); // impressions
    expect(pdf.text).toMatch(/Engagement\s+72\b/);
    expect(pdf.text).toContain('1 of 2 posts had a reading');
    expect(pdf.text).toContain('Spring launch: our new menu ?'); // the emoji is outside the PDF font's encoding
    expect(pdf.text).toContain('2 / 2');
  });

  it('flows onto more pages when much was published, numbering them', async () => {
    const { agency, clientId } = await agencyWithClient('Busy Client');
    const ig = await createSandboxConnection(clientId, { platform: 'instagram' });
    for (let i = 0; i < 40; i++) {
      await published(
        clientId,
        `2026-03-0${1 + (i % 5)}T16:00:00Z`,
        [{ connection: { id: ig.id, platform: 'instagram' }, reading: { impressions: 100, reactions: i } }],
        `Post number ${i} `.repeat(12),
      );
    }
    const pdf = await pdfOf(await reportLink(agency.secret, clientId));
    expect(pdf.pages).toBeGreaterThan(1);
    expect(pdf.libraryPages).toBe(pdf.pages);
    expect(pdf.text).toContain(`${pdf.pages} / ${pdf.pages}`);
    expect(pdf.text).toContain('Busy Client');
    expect(pdf.text).toContain('4,000'); // impressions: 40 × 100
  });
});
