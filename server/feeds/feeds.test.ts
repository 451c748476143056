// Feeds end to end: RSS and Atom documents served by a local HTTPS site reached through the
// outbound guard, each new item posted once (re-read, edited, repeated in the document), drafts
// or the posting queue, images, a broken feed recorded and paused, the job, and the /feeds
// routes over HTTP with tenant isolation and the URL guard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '@/server/crawl/testing/test-site';
import { db } from '@/server/db/client';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { checkDueFeeds, checkFeed, renderTemplate } from './feeds';
import { FEED_PAUSE_AFTER } from './feeds.schemas';
import { setFeedFetcherForTests } from './read-feed';
import { atom, rss, type FixtureItem } from './testing/feed-fixtures';

const api = usePublicApi();
let site: TestSite;

beforeAll(async () => {
  site = await startTestSite();
  setFeedFetcherForTests(site.client());
});
afterAll(async () => {
  setFeedFetcherForTests(undefined);
  await site.close();
});

let hostCount = 0;
/** A host of its own per test, so feeds of different tests never share an address. */
function feedAt(path = '/feed.xml') {
  const host = `blog${++hostCount}.site.test`;
  return {
    host,
    path,
    url: `${site.origin(host)}${path}`,
    serve: (xml: string, status = 200) => site.set(host, path, { status, body: xml, headers: { 'content-type': 'application/rss+xml' } }),
  };
}

async function workspace() {
  const w = await createWorkspaceWithKey();
  const linkedin = await createSandboxConnection(w.workspace.id, { platform: 'linkedin' });
  return { ...w, linkedin };
}

async function follow(key: string, body: Record<string, unknown>) {
  const res = await api('POST', '/feeds', { key, body });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string; title: string; status: string };
}

const check = async (key: string, id: string) => {
  const res = await api('POST', `/feeds/${id}/check`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body.data as {
    feed: { lastError: string | null; consecutiveFailures: number; status: string };
    postIds: string[];
    itemsRead: number;
    refused: unknown[];
  };
};

const postsOf = (workspaceId: string) => db.post.findMany({ where: { workspaceId }, orderBy: { createdAt: 'asc' } });

const first: FixtureItem = {
  guid: 'post-1',
  title: 'Spring menu',
  link: 'https://blog.example.com/spring',
  summary: '<p>Fresh <b>strawberries</b> are back.</p>',
};

describe('following a feed', () => {
  it('takes the title, posts nothing already in the feed, then one draft per new item from the template', async () => {
    const w = await workspace();
    const f = feedAt();
    f.serve(rss('Acme Journal', [first]));
    const feed = await follow(w.secret, { url: f.url, connectionIds: [w.linkedin.id], template: 'New: {title} {link} — {summary}', useImage: false });
    expect(feed).toMatchObject({ title: 'Acme Journal', status: 'active' });
    expect(await postsOf(w.workspace.id)).toHaveLength(0);

    const second: FixtureItem = { guid: 'post-2', title: 'Summer & ice', link: 'https://blog.example.com/summer', summary: 'Cold brew season.' };
    f.serve(rss('Acme Journal', [second, first]));
    const read = await check(w.secret, feed.id);
    expect(read).toMatchObject({ itemsRead: 2, refused: [] });
    expect(read.postIds).toHaveLength(1);
    const posts = await postsOf(w.workspace.id);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ status: 'draft', content: 'New: Summer & ice https://blog.example.com/summer — Cold brew season.' });
    const item = await db.feedItem.findUniqueOrThrow({ where: { feedId_key: { feedId: feed.id, key: 'post-2' } } });
    expect(item.postId).toBe(posts[0]!.id);
  });

  it('makes one draft each for an edited and a repeated item, however often the feed is read', async () => {
    const w = await workspace();
    const f = feedAt();
    f.serve(rss('Acme Journal', []));
    const feed = await follow(w.secret, { url: f.url, connectionIds: [w.linkedin.id], useImage: false });

    const a: FixtureItem = { guid: 'a', title: 'Opening hours', link: 'https://blog.example.com/hours' };
    // No guid: the link is the item's key.
    const b: FixtureItem = { title: 'Roastery tour', link: 'https://blog.example.com/tour' };
    // The same item listed twice in one document.
    f.serve(rss('Acme Journal', [a, b, b]));
    expect((await check(w.secret, feed.id)).postIds).toHaveLength(2);

    // Edited: a new title and summary under the same guid, b's text changed under the same link.
    f.serve(rss('Acme Journal', [{ ...a, title: 'Opening hours (updated)', summary: 'Now until 8pm' }, { ...b, title: 'Roastery tour, new dates' }, b]));
    expect((await check(w.secret, feed.id)).postIds).toHaveLength(0);
    await checkFeed(feed.id);
    await checkFeed(feed.id);

    const posts = await postsOf(w.workspace.id);
    expect(posts.map((p) => p.content).sort()).toEqual(['Opening hours https://blog.example.com/hours', 'Roastery tour https://blog.example.com/tour']);
    expect(posts.every((p) => p.status === 'draft')).toBe(true);
  });

  it('reads concurrently without a second post for the same item', async () => {
    const w = await workspace();
    const f = feedAt();
    f.serve(rss('Acme Journal', []));
    const feed = await follow(w.secret, { url: f.url, connectionIds: [w.linkedin.id], useImage: false });
    f.serve(
      rss(
        'Acme Journal',
        [1, 2, 3, 4, 5].map((n) => ({ guid: `n${n}`, title: `Item ${n}`, link: `https://blog.example.com/${n}` })),
      ),
    );
    await Promise.all([checkFeed(feed.id), checkFeed(feed.id), checkFeed(feed.id)]);
    expect(await postsOf(w.workspace.id)).toHaveLength(5);
  });

  it('reads Atom: id as the key, the alternate link, the summary as text', async () => {
    const w = await workspace();
    const f = feedAt('/atom');
    f.serve(atom('Acme Atom', []));
    const feed = await follow(w.secret, { url: f.url, connectionIds: [w.linkedin.id], template: '{title}: {summary} {link}', useImage: false });
    expect(feed.title).toBe('Acme Atom');
    f.serve(
      atom('Acme Atom', [
        { guid: 'urn:acme:1', title: 'Fair &amp; square', link: 'https://blog.example.com/fair', summary: '<p>Our beans, <em>traced</em>.</p>' },
      ]),
    );
    await check(w.secret, feed.id);
    f.serve(atom('Acme Atom', [{ guid: 'urn:acme:1', title: 'Fair trade, edited', link: 'https://blog.example.com/fair-2' }]));
    await check(w.secret, feed.id);
    const posts = await postsOf(w.workspace.id);
    expect(posts.map((p) => p.content)).toEqual(['Fair & square: Our beans, traced. https://blog.example.com/fair']);
  });

  it('adds new items to the posting queue in queue mode, oldest first', async () => {
    const w = await workspace();
    const f = feedAt();
    f.serve(rss('Acme Journal', []));
    const slots = await api('PUT', '/queue/slots', { key: w.secret, body: { slots: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, time: '09:00' })) } });
    expect(slots.status, slots.text).toBe(200);
    const feed = await follow(w.secret, { url: f.url, connectionIds: [w.linkedin.id], mode: 'queue', useImage: false });
    f.serve(
      rss('Acme Journal', [
        { guid: 'q2', title: 'Newer', link: 'https://blog.example.com/q2' },
        { guid: 'q1', title: 'Older', link: 'https://blog.example.com/q1' },
      ]),
    );
    await check(w.secret, feed.id);
    const posts = await postsOf(w.workspace.id);
    expect(posts).toHaveLength(2);
    expect(posts.every((p) => p.status === 'scheduled' && p.queued && p.scheduledAt !== null)).toBe(true);
    const [older, newer] = posts;
    expect(older!.content).toContain('Older');
    expect(older!.scheduledAt!.getTime()).toBeLessThan(newer!.scheduledAt!.getTime());
  });

  it('records an item whose post is refused and does not try it again', async () => {
    const w = await workspace();
    const f = feedAt();
    f.serve(rss('Acme Journal', []));
    const feed = await follow(w.secret, { url: f.url, connectionIds: [w.linkedin.id], template: '{summary}', useImage: false });
    f.serve(rss('Acme Journal', [{ guid: 'empty', title: 'No summary', link: 'https://blog.example.com/e' }]));
    const read = await check(w.secret, feed.id);
    expect(read.refused).toEqual([{ key: 'empty', error: expect.stringMatching(/^The post from this item was refused: content/) }]);
    expect((await check(w.secret, feed.id)).refused).toEqual([]);
    expect(await postsOf(w.workspace.id)).toHaveLength(0);
  });

  it('finds an item’s image (enclosure, media:content, media:thumbnail) and leaves it out when useImage is false', async () => {
    const { parseFeed } = await import('./parse-feed');
    const doc = rss('Pictures', [
      { guid: '1', title: 'a', link: 'https://x.example/1', image: { via: 'enclosure', url: 'https://img.example/1.jpg' } },
      { guid: '2', title: 'b', link: 'https://x.example/2', image: { via: 'media:content', url: 'https://img.example/2.jpg' } },
      { guid: '3', title: 'c', link: 'https://x.example/3', image: { via: 'media:thumbnail', url: 'https://img.example/3.jpg' } },
      { guid: '4', title: 'd', link: 'https://x.example/4' },
    ]);
    expect(parseFeed(doc).items.map((i) => i.imageUrl)).toEqual(['https://img.example/1.jpg', 'https://img.example/2.jpg', 'https://img.example/3.jpg', null]);
    expect(
      parseFeed(atom('A', [{ guid: 'x', title: 't', link: 'https://x.example/a', image: { via: 'enclosure', url: 'https://img.example/a.png' } }])).items[0]!
        .imageUrl,
    ).toBe('https://img.example/a.png');
  });

  it('posts without the image when the media service refuses it', async () => {
    const w = await workspace();
    const f = feedAt();
    f.serve(rss('Acme Journal', []));
    const feed = await follow(w.secret, { url: f.url, connectionIds: [w.linkedin.id] });
    // Not https: the media service refuses it, the post goes out without it.
    f.serve(
      rss('Acme Journal', [
        { guid: 'img', title: 'With a picture', link: 'https://blog.example.com/p', image: { via: 'enclosure', url: 'http://img.example/p.jpg' } },
      ]),
    );
    const read = await check(w.secret, feed.id);
    expect(read.postIds).toHaveLength(1);
    const [post] = await postsOf(w.workspace.id);
    expect(post).toMatchObject({ content: 'With a picture https://blog.example.com/p', mediaUrls: [] });
  });
});

describe('a broken feed', () => {
  it('shows the error on the feed, pauses after 5 failed reads in a row, and a good read after resuming clears it', async () => {
    const w = await workspace();
    const f = feedAt();
    f.serve(rss('Acme Journal', []));
    const feed = await follow(w.secret, { url: f.url, connectionIds: [w.linkedin.id] });

    f.serve('<html><body>Maintenance</body></html>');
    const once = await check(w.secret, feed.id);
    expect(once.feed).toMatchObject({
      lastError: 'The address did not return an RSS or Atom feed (its document is <html>).',
      consecutiveFailures: 1,
      status: 'active',
    });
    f.serve('down', 503);
    for (let i = 2; i < FEED_PAUSE_AFTER; i++) await checkFeed(feed.id);
    const last = await check(w.secret, feed.id);
    expect(last.feed).toMatchObject({ lastError: 'The feed answered 503.', consecutiveFailures: FEED_PAUSE_AFTER, status: 'paused' });

    const listed = await api('GET', '/feeds', { key: w.secret });
    expect(listed.body.data[0]).toMatchObject({ id: feed.id, status: 'paused', lastError: 'The feed answered 503.' });
    const refused = await api('POST', `/feeds/${feed.id}/check`, { key: w.secret });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    const paused = await db.feed.findUniqueOrThrow({ where: { id: feed.id } });
    await checkDueFeeds(new Date(Date.now() + 3_600_000));
    expect(await db.feed.findUniqueOrThrow({ where: { id: feed.id } })).toEqual(paused);

    f.serve(rss('Acme Journal', []));
    const resumed = await api('PATCH', `/feeds/${feed.id}`, { key: w.secret, body: { status: 'active' } });
    expect(resumed.body.data).toMatchObject({ status: 'active', consecutiveFailures: 0 });
    expect((await check(w.secret, feed.id)).feed).toMatchObject({ lastError: null, consecutiveFailures: 0 });
  });

  it('is refused when added: not a feed, an error status, a redirect', async () => {
    const w = await workspace();
    const f = feedAt();
    f.serve('<html><body>Just a page</body></html>');
    const page = await api('POST', '/feeds', { key: w.secret, body: { url: f.url, connectionIds: [w.linkedin.id] } });
    expect(page.status).toBe(422);
    expect(page.body.error).toMatchObject({ code: 'FEED_UNREADABLE', field: 'url' });
    site.set(f.host, '/moved', { status: 301, headers: { location: '/feed.xml' } });
    const moved = await api('POST', '/feeds', { key: w.secret, body: { url: `${site.origin(f.host)}/moved`, connectionIds: [w.linkedin.id] } });
    expect(moved.body.error.message).toBe('The feed answered 301, a redirect to /feed.xml: use the address it moved to.');
    const missing = await api('POST', '/feeds', { key: w.secret, body: { url: `${site.origin(f.host)}/nothing`, connectionIds: [w.linkedin.id] } });
    expect(missing.body.error.message).toBe('The feed answered 404.');
    expect(await db.feed.count({ where: { workspaceId: w.workspace.id } })).toBe(0);
  });
});

describe('the job', () => {
  it('reads active feeds not read for 15 minutes, once per round', async () => {
    const w = await workspace();
    const f = feedAt();
    f.serve(rss('Acme Journal', []));
    const feed = await follow(w.secret, { url: f.url, connectionIds: [w.linkedin.id], useImage: false });
    f.serve(rss('Acme Journal', [{ guid: 'job-1', title: 'From the job', link: 'https://blog.example.com/job' }]));
    // Just added (read on create): not due yet.
    await checkDueFeeds();
    expect(await postsOf(w.workspace.id)).toHaveLength(0);
    const later = new Date(Date.now() + 16 * 60_000);
    const [a, b] = await Promise.all([checkDueFeeds(later), checkDueFeeds(later)]);
    expect(a.checked + b.checked).toBeGreaterThanOrEqual(1);
    expect(await postsOf(w.workspace.id)).toHaveLength(1);
    expect((await db.feed.findUniqueOrThrow({ where: { id: feed.id } })).lastCheckedAt).not.toBeNull();
  });
});

describe('/feeds over HTTP', () => {
  it('creates, lists, reads, changes and deletes; another workspace sees none of it', async () => {
    const w = await workspace();
    const other = await workspace();
    const f = feedAt();
    f.serve(rss('Acme Journal', [first]));
    const feed = await follow(w.secret, { url: f.url, connectionIds: [w.linkedin.id] });
    expect(feed).toMatchObject({
      url: f.url,
      connectionIds: [w.linkedin.id],
      mode: 'draft',
      template: '{title} {link}',
      useImage: true,
      consecutiveFailures: 0,
      lastError: null,
    });

    expect((await api('GET', '/feeds', { key: w.secret })).body.data.map((x: { id: string }) => x.id)).toEqual([feed.id]);
    expect((await api('GET', `/feeds/${feed.id}`, { key: w.secret })).body.data.title).toBe('Acme Journal');
    const changed = await api('PATCH', `/feeds/${feed.id}`, { key: w.secret, body: { template: 'Read: {title}', mode: 'queue', useImage: false } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data).toMatchObject({ template: 'Read: {title}', mode: 'queue', useImage: false });

    expect((await api('GET', '/feeds', { key: other.secret })).body.data).toEqual([]);
    for (const [method, path, body] of [
      ['GET', `/feeds/${feed.id}`, undefined],
      ['PATCH', `/feeds/${feed.id}`, { template: 'x' }],
      ['POST', `/feeds/${feed.id}/check`, undefined],
      ['DELETE', `/feeds/${feed.id}`, undefined],
    ] as const) {
      const res = await api(method, path, { key: other.secret, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('FEED_NOT_FOUND');
    }
    const foreign = await api('POST', '/feeds', { key: other.secret, body: { url: f.url, connectionIds: [w.linkedin.id] } });
    expect(foreign.body.error.code).toBe('CONNECTION_NOT_FOUND');

    expect((await api('DELETE', `/feeds/${feed.id}`, { key: w.secret })).status).toBe(204);
    expect((await api('GET', `/feeds/${feed.id}`, { key: w.secret })).status).toBe(404);
  });

  it('refuses a private address, plain http and credentials before reading anything', async () => {
    const w = await workspace();
    const before = site.requests.length;
    for (const [url, reason] of [
      ['https://10.0.0.8/feed.xml', /private or reserved/],
      ['https://169.254.169.254/latest/meta-data', /private or reserved/],
      ['http://blog.example.com/feed.xml', /Only https URLs are allowed/],
      ['https://user:pw@blog.example.com/feed.xml', /./],
      ['https://nxdomain.site.test/feed.xml', /could not be resolved/],
    ] as const) {
      const res = await api('POST', '/feeds', { key: w.secret, body: { url, connectionIds: [w.linkedin.id] } });
      expect(res.status, url).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'FEED_URL_REFUSED', field: 'url', message: expect.stringMatching(reason) });
    }
    expect(site.requests.length).toBe(before);
  });

  it('needs posts:write to follow a feed and posts:read to list them', async () => {
    const reader = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    expect((await api('GET', '/feeds', { key: reader.secret })).status).toBe(200);
    const res = await api('POST', '/feeds', { key: reader.secret, body: { url: 'https://blog.example.com/feed.xml', connectionIds: [] } });
    expect(res.status).toBe(403);
  });
});

describe('the template', () => {
  it('replaces each placeholder once, never an item’s own text that looks like one', () => {
    expect(renderTemplate('{title} | {link} | {summary} {other}', { title: 'Use {link}', link: 'https://x.example', summary: '' })).toBe(
      'Use {link} | https://x.example | {other}',
    );
  });
});
