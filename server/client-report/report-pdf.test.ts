// The report PDF as a reader's PDF software reads it (pdf-parse, as the report route's tests):
// no page ends with a section heading whose section starts on the next page, and the text
// speaks to a client (no "null").
import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import type { ReportPageData } from './report-data';
import { renderReportPdf } from './report-pdf';
import { NOT_AVAILABLE_NOTE } from './report-words';

const HEADING = /^(Headline numbers|Engagement per day|By network|Top posts|Published \(\d+\))$/;
const PLATFORMS = ['instagram', 'linkedin', 'facebook', 'twitter', 'youtube', 'pinterest', 'bluesky', 'mastodon', 'reddit', 'threads', 'tiktok'] as const;

/**
 * A report with `networks` networks and `top` top posts: each network is two lines, so adding
 * one moves every later heading a little lower, and some count puts each near a page's foot.
 * Only what the PDF reads is filled in.
 */
function report(networks: number, top: number): ReportPageData {
  const at = '2026-03-02T14:00:00.000Z';
  const totals = { engagement: 42, impressions: 1200, reach: null, views: null };
  const data = {
    workspace: { id: 'w', name: 'Harbor Bakery', timeZone: 'Europe/Lisbon' },
    brand: { name: 'Northwind', logoUrl: null },
    title: 'Your month with us',
    expiresAt: at,
    generatedAt: at,
    range: { from: '2026-03-01', to: '2026-03-31', timeZone: 'Europe/Lisbon' },
    headline: { posts: 3, targets: 3, targetsWithReading: 2, postsWithReading: 2, ...totals, coverage: '2 of 3 posts had a reading' },
    days: Array.from({ length: 31 }, (_, i) => ({ date: `2026-03-${String(i + 1).padStart(2, '0')}`, engagement: i % 3 ? i : null, targets: 1 })),
    networks: PLATFORMS.slice(0, networks).map((platform) => ({ platform, targets: 2, targetsWithReading: 1, ...totals })),
    topPosts: Array.from({ length: top }, (_, i) => ({
      rank: i + 1,
      platform: 'instagram',
      accountName: 'Harbor Bakery',
      publishedAt: at,
      content: 'Fresh sourdough every morning, with seeds, without seeds, and a rye on Saturdays. '.repeat(2),
      latest: { engagement: 40 - i, metrics: { impressions: 1000, reach: null } },
      permalink: `https://instagram.test/p/${i}`,
    })),
    responseTimes: { from: '2026-03-01', to: '2026-03-31', answered: 12, unanswered: 2, medianMinutes: 95, withinTarget: 0.75, targetMinutes: 240 },
    published: Array.from({ length: 4 }, (_, i) => ({
      publishedAt: at,
      content: `Post ${i}: the spring menu is here.`,
      targets: [{ platform: 'instagram', accountName: 'Harbor Bakery', engagement: null }],
    })),
  };
  return data as unknown as ReportPageData;
}

async function pagesOf(bytes: Uint8Array): Promise<string[][]> {
  // The extractor takes its copy's buffer away.
  const parser = new PDFParse({ data: bytes.slice() });
  try {
    const { pages } = await parser.getText();
    // Each page's lines, without its page number ("2 / 3"), drawn last at its foot.
    return pages.map((p) =>
      p.text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !/^\d+ \/ \d+$/.test(l)),
    );
  } finally {
    await parser.destroy();
  }
}

describe('renderReportPdf', () => {
  it('never leaves a section heading alone at the foot of a page', async () => {
    let pageBreaks = 0;
    for (let networks = 1; networks <= PLATFORMS.length; networks++) {
      for (const top of [1, 3, 5]) {
        const pages = await pagesOf(await renderReportPdf(report(networks, top)));
        pageBreaks += pages.length - 1;
        for (const [i, lines] of pages.entries()) {
          expect(lines.at(-1), `${networks} networks, ${top} top posts: the end of page ${i + 1}`).not.toMatch(HEADING);
        }
        // Every heading is there, each followed by its section on its own page.
        const all = pages.flatMap((lines) => lines.filter((l) => HEADING.test(l)));
        expect(all).toEqual(['Headline numbers', 'Engagement per day', 'By network', 'Top posts', 'Published (4)']);
      }
    }
    // The reports do run over pages, so headings met page ends.
    expect(pageBreaks).toBeGreaterThan(20);
  });

  it('explains "n/a" in words a client reads', async () => {
    const text = (await pagesOf(await renderReportPdf(report(2, 1)))).flat().join(' ');
    expect(text).toContain(NOT_AVAILABLE_NOTE);
    expect(text).toContain('Engagement is reactions + comments + shares + saves (those the network reports).');
    expect(text).not.toMatch(/\bnull\b/);
  });
});
