// Tracked links end to end: the setting, short links made with the post (one per network and
// link, UTM per network), the shortened text the delivery sends (and records as its intent),
// the redirect at /l/{code} (404 for a code Herald did not make, never a destination from the
// request, bots and HEAD not counted), clicks per day over HTTP with tenant isolation and
// scopes, and clicks in the post's results and the client report.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reportResults } from '@/server/analytics/post-metrics/report-results';
import { db } from '@/server/db/client';
import { handleLinkRedirect } from '@/server/http/link-redirect';
import { apiRouteFor, API_ROUTE_FILES } from '@/server/runtime/api-routes';
import { startTestServer, type TestServer } from '@/server/testing/api-server';
import { createKey, createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { flushClicks, forgetShortCodes, isBot } from './follow-link';
import { DEFAULT_UTM_TEMPLATE, ZUtmTemplate } from './links.schemas';
import { findLinks, newShortCode, withUtm } from './track-links';

const api = usePublicApi();
let redirects: TestServer;
const journal = join(mkdtempSync(join(tmpdir(), 'herald-links-')), 'journal.jsonl');
const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';

beforeAll(async () => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
  vi.stubEnv('SANDBOX_JOURNAL', journal);
  redirects = await startTestServer({ '/l': handleLinkRedirect });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await redirects.close();
});

async function trackingWorkspace(utmTemplate?: string) {
  const w = await createWorkspaceWithKey();
  const linkedin = await createSandboxConnection(w.workspace.id, { platform: 'linkedin' });
  const twitter = await createSandboxConnection(w.workspace.id, { platform: 'twitter' });
  const res = await api('PATCH', '/settings', { key: w.secret, body: { trackLinks: true, ...(utmTemplate !== undefined ? { utmTemplate } : {}) } });
  expect(res.status, res.text).toBe(200);
  return { ...w, linkedin, twitter };
}

const TEXT = 'Spring menu: https://acme-coffee.example/spring?ref=feed. And (see https://acme-coffee.example/beans?utm_source=ours#top)!';

async function post(key: string, body: Record<string, unknown>) {
  const res = await api('POST', '/posts', { key, body });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string };
}

type Link = { id: string; platform: string; url: string; destination: string; shortUrl: string; clicks: number };
async function linksOf(key: string, postId: string): Promise<Link[]> {
  const res = await api('GET', `/posts/${postId}/links`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body.data as Link[];
}

const follow = (shortUrl: string, init: { method?: string; ua?: string } = {}) =>
  fetch(`${redirects.url}${new URL(shortUrl).pathname}`, { redirect: 'manual', method: init.method ?? 'GET', headers: { 'user-agent': init.ua ?? BROWSER } });

describe('the text', () => {
  it('finds links without the punctuation around them', () => {
    expect(findLinks(TEXT).map((l) => l.url)).toEqual(['https://acme-coffee.example/spring?ref=feed', 'https://acme-coffee.example/beans?utm_source=ours#top']);
    expect(findLinks('wiki https://en.wikipedia.example/wiki/Coffee_(drink), ok').map((l) => l.url)).toEqual([
      'https://en.wikipedia.example/wiki/Coffee_(drink)',
    ]);
    expect(findLinks('no links, ftp://x.example or https:// alone')).toEqual([]);
  });

  it('adds the template’s parameters after the link’s own; a parameter the link has keeps its value; the fragment stays last', () => {
    const values = { network: 'linkedin', post: 'p1' };
    expect(withUtm('https://a.example/x?ref=feed', DEFAULT_UTM_TEMPLATE, values)).toBe(
      'https://a.example/x?ref=feed&utm_source=linkedin&utm_medium=social&utm_campaign=herald',
    );
    expect(withUtm('https://a.example/x?utm_source=ours#top', 'utm_source={network}&utm_content={post}', values)).toBe(
      'https://a.example/x?utm_source=ours&utm_content=p1#top',
    );
    expect(withUtm('https://a.example/x', '', values)).toBe('https://a.example/x');
  });

  it('accepts only name=value templates with the known placeholders', () => {
    expect(ZUtmTemplate.safeParse('utm_source={network}&utm_campaign=spring').success).toBe(true);
    expect(ZUtmTemplate.safeParse('').success).toBe(true);
    expect(ZUtmTemplate.safeParse('utm_source').success).toBe(false);
    expect(ZUtmTemplate.safeParse('utm_source={account}').success).toBe(false);
  });

  it('makes unguessable codes and tells bots from browsers', () => {
    const codes = new Set(Array.from({ length: 1000 }, newShortCode));
    expect(codes.size).toBe(1000);
    for (const c of codes) expect(c).toMatch(/^[0-9A-Za-z]{10}$/);
    for (const ua of ['facebookexternalhit/1.1', 'Twitterbot/1.0', 'Slackbot-LinkExpanding 1.0', 'LinkedInBot/1.0', 'Googlebot/2.1', 'curl/8.5.0', '', null])
      expect(isBot(ua), String(ua)).toBe(true);
    expect(isBot(BROWSER)).toBe(false);
  });
});

describe('tracked links on a post', () => {
  it('are made per network and link with that network’s UTM parameters, and the delivery sends the shortened text it records', async () => {
    const w = await trackingWorkspace();
    const { id } = await post(w.secret, { content: TEXT, connectionIds: [w.linkedin.id, w.twitter.id] });
    const links = await linksOf(w.secret, id);
    expect(links).toHaveLength(4);
    const li = links.filter((l) => l.platform === 'linkedin');
    expect(li.map((l) => l.destination).sort()).toEqual([
      'https://acme-coffee.example/beans?utm_source=ours&utm_medium=social&utm_campaign=herald#top',
      'https://acme-coffee.example/spring?ref=feed&utm_source=linkedin&utm_medium=social&utm_campaign=herald',
    ]);
    expect(links.find((l) => l.platform === 'twitter' && l.url.includes('spring'))!.destination).toContain('utm_source=twitter');
    expect(new Set(links.map((l) => l.shortUrl)).size).toBe(4);

    const published = await api('POST', `/posts/${id}/publish`, { key: w.secret });
    expect(published.status, published.text).toBe(201);
    expect((published.body.data as { status: string }).status).toBe('published');
    const targets = await db.postTarget.findMany({ where: { postId: id } });
    const sent = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { connectionId: string; content: string });
    for (const t of targets) {
      const mine = links.filter((l) => l.platform === t.platform);
      const expected = TEXT.replace(mine.find((l) => l.url.includes('spring'))!.url, mine.find((l) => l.url.includes('spring'))!.shortUrl).replace(
        mine.find((l) => l.url.includes('beans'))!.url,
        mine.find((l) => l.url.includes('beans'))!.shortUrl,
      );
      expect(t.trackedContent).toBe(expected);
      // The intent the reconcilers look for is the text that was sent.
      expect((t.attemptIntent as { content: string }).content).toBe(expected);
      const hash = createHash('sha256').update(expected).digest('hex').slice(0, 16);
      expect(sent.find((s) => s.connectionId === t.connectionId)?.content).toBe(hash);
    }
  });

  it('reuses the same codes when the post is edited, and follows the new text', async () => {
    const w = await trackingWorkspace();
    const { id } = await post(w.secret, { content: 'Read https://a.example/one', connectionIds: [w.linkedin.id] });
    const [before] = await linksOf(w.secret, id);
    const edited = await api('PATCH', `/posts/${id}`, { key: w.secret, body: { content: 'Read https://a.example/one and https://a.example/two' } });
    expect(edited.status, edited.text).toBe(200);
    const after = await linksOf(w.secret, id);
    expect(after.find((l) => l.url === 'https://a.example/one')!.shortUrl).toBe(before!.shortUrl);
    const target = await db.postTarget.findFirstOrThrow({ where: { postId: id } });
    expect(target.trackedContent).toBe(`Read ${before!.shortUrl} and ${after.find((l) => l.url === 'https://a.example/two')!.shortUrl}`);
  });

  it('leaves posts alone while tracking is off, and an edit after turning it off sends the text as written', async () => {
    const w = await createWorkspaceWithKey();
    const linkedin = await createSandboxConnection(w.workspace.id, { platform: 'linkedin' });
    const plain = await post(w.secret, { content: 'Read https://a.example/one', connectionIds: [linkedin.id] });
    expect(await linksOf(w.secret, plain.id)).toEqual([]);
    expect((await db.postTarget.findFirstOrThrow({ where: { postId: plain.id } })).trackedContent).toBeNull();

    await api('PATCH', '/settings', { key: w.secret, body: { trackLinks: true } });
    const tracked = await post(w.secret, { content: 'Read https://a.example/one', connectionIds: [linkedin.id], firstComment: 'More: https://a.example/two' });
    expect(await db.postTarget.findFirstOrThrow({ where: { postId: tracked.id } })).toMatchObject({
      trackedContent: expect.stringContaining('/l/'),
      trackedFirstComment: expect.stringMatching(/^More: https?:\/\/\S+\/l\/\w+$/),
    });
    await api('PATCH', '/settings', { key: w.secret, body: { trackLinks: false } });
    await api('PATCH', `/posts/${tracked.id}`, { key: w.secret, body: { content: 'Read https://a.example/one!' } });
    expect(await db.postTarget.findFirstOrThrow({ where: { postId: tracked.id } })).toMatchObject({ trackedContent: null, trackedFirstComment: null });
  });

  it('refuses a template that is not name=value pairs', async () => {
    const w = await createWorkspaceWithKey();
    const res = await api('PATCH', '/settings', { key: w.secret, body: { utmTemplate: 'utm_source={account}' } });
    expect(res.status).toBe(400);
    const ok = await api('PATCH', '/settings', { key: w.secret, body: { utmTemplate: 'utm_source={network}&utm_content={post}' } });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ trackLinks: false, utmTemplate: 'utm_source={network}&utm_content={post}' });
  });
});

describe('the redirect', () => {
  it('is the route table’s handler for /l/{code}, one segment only', () => {
    expect(apiRouteFor('/l/AbCdEfGh12')).toBe(API_ROUTE_FILES.shortLink);
    expect(apiRouteFor('/l/AbCdEfGh12/x')).toBeNull();
    expect(apiRouteFor('/l')).toBeNull();
  });

  it('sends a browser to the stored destination and counts it; bots, HEAD and query strings change nothing', async () => {
    const w = await trackingWorkspace();
    const { id } = await post(w.secret, { content: 'Beans https://acme-coffee.example/beans', connectionIds: [w.linkedin.id] });
    const [link] = await linksOf(w.secret, id);
    for (let i = 0; i < 3; i++) {
      const res = await follow(link!.shortUrl);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(link!.destination);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    for (const ua of [
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Twitterbot/1.0',
      'Slackbot-LinkExpanding 1.0',
      'curl/8.5.0',
    ]) {
      const res = await follow(link!.shortUrl, { ua });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(link!.destination);
    }
    expect((await follow(link!.shortUrl, { method: 'HEAD' })).status).toBe(302);
    // A destination in the query string is never followed.
    const withQuery = await fetch(`${link!.shortUrl.replace(/^https?:\/\/[^/]+/, redirects.url)}?url=https://evil.example/&to=https://evil.example/`, {
      redirect: 'manual',
      headers: { 'user-agent': BROWSER },
    });
    expect(withQuery.headers.get('location')).toBe(link!.destination);
    await flushClicks();

    const clicks = await api('GET', `/links/${link!.id}/clicks`, { key: w.secret });
    expect(clicks.status, clicks.text).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(clicks.body.data).toMatchObject({ total: 4, days: [{ date: today, clicks: 4 }], link: { id: link!.id, clicks: 4 } });
    const outside = await api('GET', `/links/${link!.id}/clicks?from=2020-01-01&to=2020-01-31`, { key: w.secret });
    expect(outside.body.data).toMatchObject({ total: 0, days: [], window: { from: '2020-01-01', to: '2020-01-31' } });
    expect((await linksOf(w.secret, id))[0]!.clicks).toBe(4);
  });

  it('answers 404 LINK_NOT_FOUND for a code Herald did not make, a guessed one, a malformed one, with no Location', async () => {
    for (const path of ['/l/' + newShortCode(), '/l/ZZZZZZZZZZ', '/l/short', '/l/https:', '/l/..%2F..%2Fetc', '/l/AbCdEfGh12?url=https://evil.example']) {
      const res = await fetch(`${redirects.url}${path}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('location'), path).toBeNull();
      expect(await res.json()).toEqual({ error: { code: 'LINK_NOT_FOUND', message: 'No short link with that code' } });
    }
  });

  it('stops answering for a deleted post’s link', async () => {
    const w = await trackingWorkspace();
    const { id } = await post(w.secret, { content: 'x https://a.example/gone', connectionIds: [w.linkedin.id] });
    const [link] = await linksOf(w.secret, id);
    expect((await follow(link!.shortUrl)).status).toBe(302);
    await db.post.delete({ where: { id } });
    forgetShortCodes();
    expect((await follow(link!.shortUrl)).status).toBe(404);
    await flushClicks(); // the click counted before the delete is dropped with its link, not an error
  });
});

describe('the links API', () => {
  it('keeps each workspace’s links to itself and needs analytics:read', async () => {
    const w = await trackingWorkspace();
    const other = await createWorkspaceWithKey();
    const { id } = await post(w.secret, { content: 'x https://a.example/mine', connectionIds: [w.linkedin.id] });
    const [link] = await linksOf(w.secret, id);

    const foreign = await api('GET', `/links/${link!.id}/clicks`, { key: other.secret });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ error: { code: 'LINK_NOT_FOUND' } });
    expect((await api('GET', `/posts/${id}/links`, { key: other.secret })).body).toMatchObject({ error: { code: 'POST_NOT_FOUND' } });
    expect((await api('GET', '/links/not-a-uuid/clicks', { key: w.secret })).status).toBe(404);

    const postsOnly = await createKey(w.workspace.id, { scopes: ['posts:read'] });
    const refused = await api('GET', `/links/${link!.id}/clicks`, { key: postsOnly.secret });
    expect(refused.status).toBe(403);
  });
});

describe('clicks in the results', () => {
  it('show on the post’s targets and in the client report, a network’s links counted once', async () => {
    const w = await trackingWorkspace();
    const { id } = await post(w.secret, { content: 'Beans https://acme-coffee.example/beans', connectionIds: [w.linkedin.id, w.twitter.id] });
    expect((await api('POST', `/posts/${id}/publish`, { key: w.secret })).status).toBe(201);
    const links = await linksOf(w.secret, id);
    const li = links.find((l) => l.platform === 'linkedin')!;
    for (let i = 0; i < 2; i++) await follow(li.shortUrl);
    await follow(links.find((l) => l.platform === 'twitter')!.shortUrl);
    await flushClicks();

    const metrics = await api('GET', `/posts/${id}/metrics`, { key: w.secret });
    expect(metrics.status, metrics.text).toBe(200);
    const byPlatform = Object.fromEntries(
      (metrics.body.data as { targets: { platform: string; clicks: number }[] }).targets.map((t) => [t.platform, t.clicks]),
    );
    expect(byPlatform).toEqual({ linkedin: 2, twitter: 1 });

    const today = new Date().toISOString().slice(0, 10);
    const report = await reportResults(w.workspace.id, today, today);
    expect(report.headline.clicks).toBe(3);
    expect(Object.fromEntries(report.networks.map((n) => [n.platform, n.clicks]))).toEqual({ linkedin: 2, twitter: 1 });
    expect(report.published[0]!.targets.map((t) => t.clicks).sort()).toEqual([1, 2]);

    // Top posts rank targets with a reading: one for the LinkedIn target.
    const target = await db.postTarget.findFirstOrThrow({ where: { postId: id, platform: 'linkedin' } });
    await db.postMetricReading.create({
      data: {
        targetId: target.id,
        workspaceId: w.workspace.id,
        connectionId: target.connectionId,
        platform: 'linkedin',
        trigger: 'seed',
        source: 'linkedin',
        collectedAt: new Date(),
        impressions: 100,
        reactions: 5,
        engagement: 5,
      },
    });
    const top = await api('GET', `/analytics/top-posts?from=${today}&to=${today}`, { key: w.secret });
    expect(top.status, top.text).toBe(200);
    expect((top.body.data as { platform: string; clicks: number }[]).map((t) => [t.platform, t.clicks])).toEqual([['linkedin', 2]]);
    expect(existsSync(journal)).toBe(true);
  });
});
