// The report page rendered on the server as Next renders it (the lead's Playwright run drives
// it in Chromium): headings, the stats with their coverage, the chart's text alternative,
// thumbnails with alt text, the PDF link; a dead link renders the shared problem page.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { useClientLinkApi } from '@/server/testing/client-link-api';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import ReportPage from './page';

vi.mock('next/headers', () => ({ headers: async () => new Headers({ 'x-forwarded-for': `10.7.${Math.floor(Math.random() * 250)}.1` }) }));

// eslint-disable-next-line react-hooks/rules-of-hooks -- a vitest fixture (beforeAll/afterAll), not a React hook
const { api } = useClientLinkApi();

async function render(token: string): Promise<string> {
  return renderToStaticMarkup(await ReportPage({ params: Promise.resolve({ token }) }));
}

describe('app/report/[token]', () => {
  it('renders the report: title, headline stats with coverage, an SVG chart with its text, top posts with alt text, the PDF link', async () => {
    const agency = await createWorkspaceWithKey();
    const clientId = (await api('POST', '/workspaces', { key: agency.secret, body: { name: 'Bakery & Co' } })).body.data.id as string;
    const ig = await createSandboxConnection(clientId, { platform: 'instagram' });
    const at = new Date('2026-03-02T14:00:00Z');
    const post = await db.post.create({
      data: {
        workspaceId: clientId,
        content: 'Fresh bread <b>daily</b>',
        mediaUrls: ['https://media.test/bread.jpg'],
        media: [{ url: 'https://media.test/bread.jpg', kind: 'image' }],
        platforms: ['instagram'],
        connectionIds: [ig.id],
        status: 'published',
        scheduledAt: at,
        publishedAt: at,
        targets: {
          create: {
            connectionId: ig.id,
            platform: 'instagram',
            status: 'published',
            postedId: 'p1',
            permalink: 'https://instagram.test/p/1',
            attempts: 1,
            publishedAt: at,
          },
        },
      },
      include: { targets: true },
    });
    await db.postMetricReading.create({
      data: {
        targetId: post.targets[0]!.id,
        workspaceId: clientId,
        connectionId: ig.id,
        platform: 'instagram',
        trigger: 'seed',
        source: 'instagram',
        collectedAt: new Date(at.getTime() + 3_600_000),
        impressions: 12345,
        reactions: 40,
        comments: 2,
        engagement: 42,
      },
    });
    const link = await api('POST', `/workspaces/${clientId}/report-url`, {
      key: agency.secret,
      body: { from: '2026-03-01', to: '2026-03-31', brand: { name: 'Northwind' } },
    });
    const token = (link.body.data.url as string).split('/').at(-1)!;
    const html = await render(token);
    expect(html).toContain('<h1 id="report-title"');
    expect(html).toContain('Results for Bakery &amp; Co');
    expect(html).toContain('Northwind');
    expect(html).toContain('12,345');
    expect(html).toContain('1 of 1 post had a reading');
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-label="Engagement per day from 2026-03-01 to 2026-03-31; the highest was 42 on 2026-03-02\."/);
    expect(html.match(/<rect /g)).toHaveLength(1);
    expect(html).toContain('alt="Image of the Instagram post ranked 1"');
    expect(html).toContain(`href="/public/report/${token}/pdf"`);
    expect(html).toContain('href="https://instagram.test/p/1"');
    expect(html).toContain('Fresh bread &lt;b&gt;daily&lt;/b&gt;');
    expect(html.match(/<h2 /g)).toHaveLength(6);
    expect(html).toContain('Replies to comments');
    // Words for a client: what "n/a" and engagement mean, never how they are stored.
    expect(html).toContain('n/a: the network does not report this number, or has not reported it yet.');
    expect(html).toContain('Engagement is reactions + comments + shares + saves (those the network reports).');
    expect(html).not.toMatch(/\bnull\b/);
  });

  it('a revoked or unknown link renders the problem page', async () => {
    expect(await render('x'.repeat(43))).toContain('This link is no longer valid');
  });
});
