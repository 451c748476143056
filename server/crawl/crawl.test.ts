// The crawl end to end: real HTML pages on a local HTTPS site reached through the outbound
// guard, the crawler's outcomes stored and answered verbatim, robots.txt, the per-host delay
// (on a test clock), change detection between consecutive successful visits, emptyMeans,
// parameter validation and tenant isolation over HTTP, and the staff-only procedures.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { createCaller } from '@/server/root';
import { createRequestContext } from '@/server/trpc/context';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { crawlerUserAgent, runCrawl, type CrawlClock, type CrawlOptions } from './crawl-run';
import { extractPage } from './extract';
import { landingPage, startTestSite, type TestSite } from './testing/test-site';
import type { OutboundClient } from '@/server/outbound';

const api = usePublicApi();
let site: TestSite;
let other: TestSite;
let client: OutboundClient;

beforeAll(async () => {
  site = await startTestSite();
  other = await startTestSite();
  client = site.client();
});
afterAll(async () => {
  await site.close();
  await other.close();
  vi.unstubAllEnvs();
});

/** A clock that never waits: sleeping moves it forward, and every sleep is noted. */
function testClock(): CrawlClock & { sleeps: number[] } {
  let t = 1_000_000;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
      await Promise.resolve();
    },
  };
}

async function staffOf(workspaceId: string) {
  const user = await db.user.create({ data: { email: `staff-${workspaceId}@example.com`, name: 'Staff' } });
  await db.membership.create({ data: { userId: user.id, workspaceId, role: 'owner' } });
  return createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(), staffUserId: user.id }));
}

async function tracked(host: string, paths: string[], t: TestSite = site) {
  const w = await createWorkspaceWithKey();
  const staff = await staffOf(w.workspace.id);
  const { data: s } = await staff.crawl.addSite({ name: host, url: `${t.origin(host)}/` });
  const pages: Record<string, string> = {};
  for (const p of paths) pages[p] = (await staff.crawl.addPage({ siteId: s.id, url: `${t.origin(host)}${p}` })).data.id;
  return { ...w, staff, siteId: s.id, pages };
}

const crawl = (workspaceId: string, opts: Partial<CrawlOptions> = {}) =>
  runCrawl({ workspaceId, fetch: (url, init) => client.fetch(url, init), clock: testClock(), politenessMs: 0, timeoutMs: 1_000, ...opts });

async function timeline(key: string, pageId: string) {
  const res = await api('GET', `/crawl/pages/${pageId}/timeline?limit=100`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe('visits and their outcomes', () => {
  it('records every visit, including those that returned nothing, with the outcome verbatim', async () => {
    const host = 'outcomes.site.test';
    site.set(host, '/ok', landingPage({ title: 'Spring sale', h1: 'Spring sale', paragraphs: ['Everything is twenty percent off this week only.'] }));
    site.set(host, '/error', { status: 503, body: 'down' });
    site.set(host, '/empty', { status: 200, body: '' });
    site.set(host, '/slow', { hang: true });
    site.set(host, '/pdf', { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.7' });
    site.set(host, '/moved', { status: 301, headers: { location: '/ok' } });
    const w = await tracked(host, ['/ok', '/missing', '/error', '/empty', '/slow', '/pdf', '/moved']);
    const summary = await crawl(w.workspace.id, { timeoutMs: 400 });
    expect(summary.visits).toBe(7);

    const expected: Record<string, [string, string | null, number | null]> = {
      '/ok': ['ok', null, 200],
      '/missing': ['http_error', 'HTTP 404 Not Found', 404],
      '/error': ['http_error', 'HTTP 503 Service Unavailable', 503],
      '/empty': ['empty_body', 'HTTP 200 with an empty body', 200],
      '/slow': ['timeout', `${host}:${site.port} did not answer within 400 ms.`, null],
      '/pdf': ['not_html', 'Content-Type application/pdf', 200],
      '/moved': ['redirect', 'HTTP 301 Moved Permanently → /ok', 301],
    };
    for (const [path, [outcome, detail, statusCode]] of Object.entries(expected)) {
      const t = await timeline(w.secret, w.pages[path]!);
      expect(t.data, path).toHaveLength(1);
      expect({ outcome: t.data[0]!.outcome, detail: t.data[0]!.detail, statusCode: t.data[0]!.statusCode }, path).toEqual({ outcome, detail, statusCode });
      expect(t.data[0]!.extracted === null, path).toBe(path !== '/ok');
      expect(t.provenance).toMatchObject({ source: 'crawler', userAgent: crawlerUserAgent() });
    }
    // The stored row is what the API answers, byte for byte.
    const rows = await db.crawlVisit.findMany({ where: { workspaceId: w.workspace.id } });
    const pages = await api('GET', `/crawl/pages?siteId=${w.siteId}&limit=100`, { key: w.secret });
    for (const p of pages.body.data) {
      const row = rows.find((r) => r.pageId === p.id)!;
      expect(p.lastVisit).toMatchObject({ visitId: row.id, outcome: row.outcome, detail: row.detail, statusCode: row.statusCode });
    }
    expect(site.requests.filter((r) => r.host === host).every((r) => r.userAgent === crawlerUserAgent())).toBe(true);
    expect(crawlerUserAgent()).toMatch(/^Mozilla\/5\.0 \(compatible; HeraldBot\/1\.0; \+https?:\/\/.+\/bot\)$/);
  });

  it('records DNS and TLS failures as visits that returned nothing', async () => {
    const dns = await tracked('nxdomain.site.test', ['/']);
    // `other` presents a certificate the crawler's client does not trust.
    other.set('tls.site.test', '/', landingPage({ title: 'x', h1: 'x', paragraphs: ['x'] }));
    const tls = await tracked('tls.site.test', ['/'], other);
    await crawl(dns.workspace.id);
    await crawl(tls.workspace.id);
    const [d] = (await timeline(dns.secret, dns.pages['/']!)).data;
    expect(d).toMatchObject({ outcome: 'dns_failure', statusCode: null, extracted: null });
    expect(d!.detail).toContain('nxdomain.site.test');
    const [t] = (await timeline(tls.secret, tls.pages['/']!)).data;
    expect(t).toMatchObject({ outcome: 'tls_error', statusCode: null, extracted: null });
    expect(t!.detail).toMatch(/robots\.txt: Could not reach tls\.site\.test/);
    expect(other.requests.some((r) => r.host === 'tls.site.test')).toBe(false); // the handshake never completed

    // Nothing listens on port 1.
    const w = await createWorkspaceWithKey();
    const staff = await staffOf(w.workspace.id);
    const { data: s } = await staff.crawl.addSite({ name: 'refused', url: 'https://refused.site.test:1/' });
    const { data: page } = await staff.crawl.addPage({ siteId: s.id, url: 'https://refused.site.test:1/' });
    await crawl(w.workspace.id);
    const [r] = (await timeline(w.secret, page.id)).data;
    expect(r).toMatchObject({
      outcome: 'connection_failed',
      detail: 'robots.txt: Could not reach refused.site.test:1: connect ECONNREFUSED 127.0.0.1:1 (ECONNREFUSED)',
    });
  });

  it('extracts title, description, canonical, headings and the main text with the libraries', async () => {
    const host = 'extract.site.test';
    site.set(
      host,
      '/landing',
      landingPage({
        title: 'Herald for agencies',
        description: 'Publish everywhere from one place.',
        canonical: '/landing?ref=canonical',
        h1: 'One composer, every channel',
        h2: ['Scheduling', 'Approvals'],
        paragraphs: ['Plan a month of posts in an afternoon and let clients approve them from a link.'.repeat(3)],
      }),
    );
    const w = await tracked(host, ['/landing']);
    await crawl(w.workspace.id);
    const [v] = (await timeline(w.secret, w.pages['/landing']!)).data;
    expect(v!.extracted).toMatchObject({
      title: 'Herald for agencies',
      metaDescription: 'Publish everywhere from one place.',
      canonical: `${site.origin(host)}/landing?ref=canonical`,
      headings: [
        { level: 1, text: 'One composer, every channel' },
        { level: 2, text: 'Scheduling' },
        { level: 2, text: 'Approvals' },
      ],
    });
    expect(v!.extracted!.textExcerpt).toContain('Plan a month of posts');
    expect(v!.extracted!.textExcerpt).not.toContain('window.dataLayer');
    expect(v!.extracted!.textExcerpt).not.toContain('All rights reserved'); // readability drops the footer
  });

  it('keeps words of neighbouring blocks apart, as a reader sees them', () => {
    const html = `<html><head><title>T</title></head><body><main><h2>Strategy</h2><p>We grow brands.</p><ul><li>Reach</li><li>Trust</li></ul>Line<br>break</main></body></html>`;
    const { text } = extractPage(html, 'https://example.com/');
    expect(text).toContain('Strategy We grow brands.');
    expect(text).toContain('Reach Trust');
    expect(text).toContain('Line break');
    expect(text).not.toMatch(/StrategyWe|ReachTrust|Linebreak/);
  });
});

describe('robots.txt', () => {
  it('skips disallowed pages without requesting them and honours the HeraldBot group', async () => {
    const host = 'robots.site.test';
    site.set(host, '/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: HeraldBot\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n',
    });
    site.set(host, '/public', landingPage({ title: 'Public', h1: 'Public', paragraphs: ['Open to crawlers.'] }));
    site.set(host, '/private/offer', landingPage({ title: 'Private', h1: 'Private', paragraphs: ['Not for crawlers.'] }));
    const w = await tracked(host, ['/public', '/private/offer']);
    await crawl(w.workspace.id);
    expect(site.requests.filter((r) => r.host === host).map((r) => r.path)).toEqual(['/robots.txt', '/public']);
    const [blocked] = (await timeline(w.secret, w.pages['/private/offer']!)).data;
    expect(blocked).toMatchObject({ outcome: 'blocked_by_robots', detail: 'robots.txt disallows /private/offer for HeraldBot', statusCode: null });
    const [open] = (await timeline(w.secret, w.pages['/public']!)).data;
    expect(open!.outcome).toBe('ok');
  });

  it('treats a robots.txt that answers 5xx as disallowing everything, and a missing one as allowing everything', async () => {
    site.set('robots5xx.site.test', '/robots.txt', { status: 500, body: 'oops' });
    site.set('robots5xx.site.test', '/', landingPage({ title: 'x', h1: 'x', paragraphs: ['x'] }));
    const w = await tracked('robots5xx.site.test', ['/']);
    await crawl(w.workspace.id);
    const [v] = (await timeline(w.secret, w.pages['/']!)).data;
    expect(v).toMatchObject({
      outcome: 'blocked_by_robots',
      detail: 'robots.txt could not be read (HTTP 500), so the site is treated as disallowing everything',
    });
    expect(site.requests.filter((r) => r.host === 'robots5xx.site.test').map((r) => r.path)).toEqual(['/robots.txt']);
  });
});

describe('politeness', () => {
  it('waits at least the delay between two requests to a host, and longer when Crawl-delay asks', async () => {
    const fast = 'polite-a.site.test';
    const slow = 'polite-b.site.test';
    site.set(slow, '/robots.txt', { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nCrawl-delay: 5\n' });
    for (const h of [fast, slow]) for (const p of ['/1', '/2', '/3']) site.set(h, p, landingPage({ title: p, h1: p, paragraphs: [`${h} ${p}`] }));
    const a = await tracked(fast, ['/1', '/2', '/3']);
    const staff = a.staff;
    const { data: s2 } = await staff.crawl.addSite({ name: slow, url: site.origin(slow) });
    for (const p of ['/1', '/2', '/3']) await staff.crawl.addPage({ siteId: s2.id, url: `${site.origin(slow)}${p}` });

    const clock = testClock();
    const summary = await crawl(a.workspace.id, { clock, politenessMs: 1_000, hostConcurrency: 2 });
    expect(summary).toMatchObject({ sites: 2, hosts: 2, visits: 6 });
    // Quiet time the host saw: from the end of one request to the start of the next.
    const gaps = (host: string) => {
      const requests = summary.requests.filter((r) => r.host.startsWith(host));
      expect(requests.map((r) => new URL(r.url).pathname)).toEqual(['/robots.txt', '/1', '/2', '/3']);
      return requests.slice(1).map((r, i) => r.at - requests[i]!.done);
    };
    for (const g of gaps(fast)) expect(g).toBeGreaterThanOrEqual(1_000);
    for (const g of gaps(slow)) expect(g).toBeGreaterThanOrEqual(5_000);
    expect(clock.sleeps.length).toBeGreaterThan(0);
  });

  it('skips a page removed while it was being visited and records the others', async () => {
    site.set('vanish.site.test', '/stay', landingPage({ title: 'stay', h1: 'stay', paragraphs: ['stay'] }));
    site.set('vanish.site.test', '/vanish', landingPage({ title: 'vanish', h1: 'vanish', paragraphs: ['vanish'] }));
    const w = await tracked('vanish.site.test', ['/vanish', '/stay']);
    const summary = await crawl(w.workspace.id, {
      fetch: async (url, init) => {
        if (String(url).endsWith('/vanish')) await w.staff.crawl.removePage({ id: w.pages['/vanish']! });
        return client.fetch(url, init);
      },
    });
    expect(summary.visits).toBe(1);
    expect((await timeline(w.secret, w.pages['/stay']!)).data).toHaveLength(1);
  });

  it('never crawls a site twice at once', async () => {
    site.set('claim.site.test', '/', landingPage({ title: 'x', h1: 'x', paragraphs: ['x'] }));
    const w = await tracked('claim.site.test', ['/']);
    const [one, two] = await Promise.all([crawl(w.workspace.id), crawl(w.workspace.id)]);
    expect(one.sites + two.sites).toBe(1);
    expect(await db.crawlVisit.count({ where: { workspaceId: w.workspace.id } })).toBe(1);
  });
});

describe('change detection', () => {
  it('compares consecutive successful visits and summarises the text diff', async () => {
    const host = 'changes.site.test';
    // Longer than the 500 characters a change record keeps of each side: the detail route answers it whole.
    const filler = 'Every plan includes unlimited drafts, the calendar and the shared inbox. '.repeat(10);
    const v1 = {
      title: 'Pricing',
      description: 'Plans for teams',
      h1: 'Pricing',
      h2: ['Starter', 'Agency'],
      paragraphs: ['The starter plan costs nine dollars a month and includes three channels.', filler],
    };
    site.set(host, '/pricing', landingPage(v1));
    const w = await tracked(host, ['/pricing']);
    const pageId = w.pages['/pricing']!;
    const changes = () => api('GET', `/crawl/changes?siteId=${w.siteId}&pageId=${pageId}&limit=10`, { key: w.secret });

    await crawl(w.workspace.id);
    expect((await changes()).body.provenance.emptyMeans).toBe('fewer_than_two_successful_visits');
    await crawl(w.workspace.id); // same page again
    const unchanged = await changes();
    expect(unchanged.body.data).toEqual([]);
    expect(unchanged.body.provenance).toMatchObject({ emptyMeans: 'visited_no_changes', visitsInWindow: 2, successfulVisitsInWindow: 2, source: 'crawler' });

    site.set(host, '/pricing', { status: 500, body: 'maintenance' });
    await crawl(w.workspace.id); // a failed visit in between is not compared
    expect((await changes()).body.data).toEqual([]);

    site.set(
      host,
      '/pricing',
      landingPage({
        ...v1,
        title: 'Pricing 2027',
        h2: ['Starter', 'Agency', 'Enterprise'],
        paragraphs: ['The starter plan costs twelve dollars a month and includes five channels.', filler],
      }),
    );
    await crawl(w.workspace.id);
    const res = await changes();
    expect(res.status).toBe(200);
    expect(res.body.provenance.emptyMeans).toBeNull();
    expect(res.body.data).toHaveLength(1);
    const change = res.body.data[0]!;
    expect(change.fields).toEqual(['title', 'headings', 'text']);
    expect(change.changes.title).toEqual({ before: 'Pricing', after: 'Pricing 2027' });
    expect((change.changes.headings!.after as unknown[]).length).toBe(4);
    expect(change.diffSummary).toMatchObject({ addedWords: 3, removedWords: 2, truncated: false });
    // The main text includes the article's headings: the new "Enterprise" section is text too.
    expect(change.diffSummary.excerpts).toEqual([
      { type: 'added', text: 'Enterprise' },
      { type: 'removed', text: 'nine' },
      { type: 'added', text: 'twelve' },
      { type: 'removed', text: 'three' },
      { type: 'added', text: 'five' },
    ]);
    const visits = (await timeline(w.secret, pageId)).data;
    expect(visits.map((v) => v.outcome)).toEqual(['ok', 'http_error', 'ok', 'ok']); // newest first, failures included
    expect(change.fromVisitId).toBe(visits[2]!.id);
    expect(change.toVisitId).toBe(visits[0]!.id);

    // One change with both visits it compares, the main text whole.
    const detail = await api('GET', `/crawl/changes/${change.id}`, { key: w.secret });
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.data).toMatchObject({
      ...change,
      before: { visitId: change.fromVisitId, title: 'Pricing', metaDescription: 'Plans for teams' },
      after: { visitId: change.toVisitId, title: 'Pricing 2027' },
    });
    expect(detail.body.data.before.text).toContain('nine dollars');
    expect(detail.body.data.after.text).toContain('twelve dollars');
    expect(detail.body.data.after.text!.length).toBeGreaterThan(500);
    expect(detail.body.data.after.text!.trimEnd().endsWith(filler.trim())).toBe(true);
    expect(detail.body.provenance).toMatchObject({ source: 'crawler', collectedAt: visits[0]!.finishedAt });
    const stranger = await createWorkspaceWithKey();
    for (const [id, key] of [
      [change.id, stranger.secret],
      ['not-a-uuid', w.secret],
      ['00000000-0000-4000-8000-000000000000', w.secret],
    ] as const) {
      const res = await api('GET', `/crawl/changes/${id}`, { key });
      expect(res.status, id).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'CRAWL_CHANGE_NOT_FOUND', field: 'changeId' });
    }
  });

  it('says when the page was not visited in the window', async () => {
    site.set('window.site.test', '/', landingPage({ title: 'x', h1: 'x', paragraphs: ['x'] }));
    const w = await tracked('window.site.test', ['/', '/never']);
    await crawl(w.workspace.id);
    await crawl(w.workspace.id);
    const q = (pageId: string, extra = '') => api('GET', `/crawl/changes?siteId=${w.siteId}&pageId=${pageId}&limit=5${extra}`, { key: w.secret });
    const never = await db.crawlPage.findFirstOrThrow({ where: { siteId: w.siteId, url: { endsWith: '/never' } } });
    await db.crawlVisit.deleteMany({ where: { pageId: never.id } });
    expect((await q(never.id)).body.provenance.emptyMeans).toBe('not_visited_in_window');
    const past = await q(w.pages['/']!, '&from=2025-01-01&to=2025-01-31');
    expect(past.body.provenance).toMatchObject({ emptyMeans: 'not_visited_in_window', window: { from: '2025-01-01', to: '2025-01-31' }, visitsInWindow: 0 });
    expect((await q(w.pages['/']!)).body.provenance.emptyMeans).toBe('visited_no_changes');
  });
});

describe('the crawl routes', () => {
  it('lists sites with their crawl state and provenance', async () => {
    site.set('state.site.test', '/', landingPage({ title: 'x', h1: 'x', paragraphs: ['x'] }));
    const w = await tracked('state.site.test', ['/', '/gone']);
    const before = await api('GET', '/crawl/sites', { key: w.secret });
    expect(before.body.data[0]!.state).toMatchObject({ status: 'never_crawled', lastVisitAt: null });
    expect(before.body.provenance).toMatchObject({ source: 'crawler', collectedAt: null });
    await crawl(w.workspace.id);
    const after = await api('GET', '/crawl/sites', { key: w.secret });
    expect(after.body.data).toHaveLength(1);
    expect(after.body.data[0]).toMatchObject({ id: w.siteId, origin: site.origin('state.site.test'), pageCount: 2 });
    expect(after.body.data[0]!.state).toMatchObject({ status: 'idle', visitsInLastRun: 2, failedInLastRun: 1 });
    expect(after.body.provenance.collectedAt).not.toBeNull();
  });

  it.each([
    ['/crawl/pages?siteId=SITE', 'limit'],
    ['/crawl/pages?siteId=SITE&limit=0', 'limit'],
    ['/crawl/pages?siteId=SITE&limit=101', 'limit'],
    ['/crawl/pages?siteId=SITE&limit=ten', 'limit'],
    ['/crawl/pages?limit=5', 'siteId'],
    ['/crawl/pages?siteId=not-a-uuid&limit=5', 'siteId'],
    ['/crawl/pages?siteId=SITE&limit=5&page=2', 'page'],
    ['/crawl/pages/PAGE/timeline', 'limit'],
    ['/crawl/changes?siteId=SITE&limit=5', 'pageId'],
    ['/crawl/changes?siteId=SITE&pageId=PAGE', 'limit'],
    ['/crawl/changes?siteId=SITE&pageId=PAGE&limit=5&from=2026-02-30', 'from'],
    ['/crawl/changes?siteId=SITE&pageId=PAGE&limit=5&from=2026-03-02&to=2026-03-01', 'to'],
    ['/crawl/changes?siteId=SITE&pageId=PAGE&limit=5&from=2024-01-01&to=2026-01-01', 'to'],
  ])('%s answers VALIDATION_FAILED naming %s', async (path, field) => {
    const w = await tracked('validation.site.test', ['/']);
    const res = await api('GET', path.replace('SITE', w.siteId).replace('PAGE', w.pages['/']!), { key: w.secret });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field });
  });

  it('finds no site, page, timeline or change of another workspace', async () => {
    site.set('tenant.site.test', '/', landingPage({ title: 'x', h1: 'x', paragraphs: ['x'] }));
    const a = await tracked('tenant.site.test', ['/']);
    const b = await tracked('tenant-b.site.test', ['/']);
    await crawl(a.workspace.id);
    const pageA = a.pages['/']!;
    const cases: [string, string, string][] = [
      [`/crawl/pages?siteId=${a.siteId}&limit=5`, 'CRAWL_SITE_NOT_FOUND', 'siteId'],
      [`/crawl/pages/${pageA}/timeline?limit=5`, 'CRAWL_PAGE_NOT_FOUND', 'pageId'],
      [`/crawl/changes?siteId=${a.siteId}&pageId=${pageA}&limit=5`, 'CRAWL_SITE_NOT_FOUND', 'siteId'],
      [`/crawl/changes?siteId=${b.siteId}&pageId=${pageA}&limit=5`, 'CRAWL_PAGE_NOT_FOUND', 'pageId'],
      [`/crawl/changes?siteId=${a.siteId}&pageId=${b.pages['/']}&limit=5`, 'CRAWL_SITE_NOT_FOUND', 'siteId'],
    ];
    for (const [path, code, field] of cases) {
      const res = await api('GET', path, { key: b.secret });
      expect(res.status, path).toBe(404);
      expect(res.body.error, path).toMatchObject({ code, field });
    }
    expect((await api('GET', '/crawl/sites', { key: b.secret })).body.data.map((s) => s.id)).toEqual([b.siteId]);
    // A page of site B is not found under site A's id in the same workspace either.
    const second = await b.staff.crawl.addSite({ name: 'second', url: site.origin('tenant-c.site.test') });
    const res = await api('GET', `/crawl/changes?siteId=${second.data.id}&pageId=${b.pages['/']}&limit=5`, { key: b.secret });
    expect(res.body.error).toMatchObject({ code: 'CRAWL_PAGE_NOT_FOUND', field: 'pageId' });
  });

  it('needs analytics:read', async () => {
    const w = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    const res = await api('GET', '/crawl/sites', { key: w.secret });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('SCOPE_MISSING');
  });
});

describe('sites and pages are managed by staff in the app', () => {
  it('refuses API keys, non-https URLs, pages of another origin, duplicates; removal takes the history with it', async () => {
    const w = await tracked('staff.site.test', ['/']);
    const keyCaller = createCaller(createRequestContext({ transport: 'trpc', headers: new Headers({ authorization: `Bearer ${w.secret}` }) }));
    await expect(keyCaller.crawl.addSite({ name: 'x', url: 'https://example.com' })).rejects.toMatchObject({ message: expect.stringContaining('member') });
    await expect(w.staff.crawl.addSite({ name: 'x', url: 'http://example.com' })).rejects.toThrow();
    await expect(w.staff.crawl.addSite({ name: 'x', url: 'https://10.0.0.1/' })).rejects.toMatchObject({ message: expect.stringContaining('private') });
    await expect(w.staff.crawl.addSite({ name: 'again', url: `${site.origin('staff.site.test')}/other` })).rejects.toMatchObject({
      message: expect.stringContaining('already'),
    });
    await expect(w.staff.crawl.addPage({ siteId: w.siteId, url: 'https://elsewhere.example.com/' })).rejects.toMatchObject({
      message: expect.stringContaining('must be on'),
    });
    // Not part of the REST contract.
    expect((await api('POST', '/crawl/sites', { key: w.secret, body: { name: 'x', url: 'https://example.com' } })).body.error.code).toBe('ROUTE_NOT_FOUND');

    await crawl(w.workspace.id);
    await w.staff.crawl.removePage({ id: w.pages['/']! });
    expect(await db.crawlVisit.count({ where: { workspaceId: w.workspace.id } })).toBe(0);
    await w.staff.crawl.removeSite({ id: w.siteId });
    expect((await api('GET', '/crawl/sites', { key: w.secret })).body.data).toEqual([]);
    const otherWs = await tracked('staff-b.site.test', ['/']);
    await expect(w.staff.crawl.removeSite({ id: otherWs.siteId })).rejects.toMatchObject({ message: expect.stringContaining('No crawl site') });
    await expect(w.staff.crawl.removePage({ id: otherWs.pages['/']! })).rejects.toMatchObject({ message: expect.stringContaining('No tracked page') });
    await expect(w.staff.crawl.addPage({ siteId: otherWs.siteId, url: `${site.origin('staff-b.site.test')}/x` })).rejects.toMatchObject({
      message: expect.stringContaining('No crawl site'),
    });
    expect(await db.crawlPage.count({ where: { siteId: otherWs.siteId } })).toBe(1);
  });

  it("crawls one site now on a member's ask: one queued crawl per site, through the same crawl", async () => {
    const w = await tracked('now.site.test', ['/']);
    const keyCaller = createCaller(createRequestContext({ transport: 'trpc', headers: new Headers({ authorization: `Bearer ${w.secret}` }) }));
    await expect(keyCaller.crawl.crawlNow({ id: w.siteId })).rejects.toMatchObject({ message: expect.stringContaining('member') });
    const other = await tracked('now-b.site.test', ['/']);
    await expect(w.staff.crawl.crawlNow({ id: other.siteId })).rejects.toMatchObject({ message: expect.stringContaining('No crawl site') });

    expect((await w.staff.crawl.crawlNow({ id: w.siteId })).data).toEqual({ queued: true });
    await w.staff.crawl.crawlNow({ id: w.siteId });
    const jobs = await db.$queryRaw<{ payload: { siteId: string } }[]>`
      SELECT j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier = 'crawl.site' AND j.key = ${`crawl.site:${w.siteId}`}`;
    expect(jobs.map((j) => j.payload.siteId)).toEqual([w.siteId]);
    // The job's work: that site's pages, nobody else's.
    const { runnableJobs } = await import('@/server/runtime/job-handlers');
    vi.stubEnv('CRAWL_POLITENESS_MS', '0');
    await runnableJobs
      .find((j) => j.name === 'crawl.site')!
      .handler({ siteId: w.siteId }, { attempt: 1, maxAttempts: 2, signal: new AbortController().signal });
    expect(await db.crawlVisit.count({ where: { workspaceId: w.workspace.id } })).toBe(1);
    expect(await db.crawlVisit.count({ where: { workspaceId: other.workspace.id } })).toBe(0);
  });
});
