// Analytics, the crawl and best times in the staff app: the daily chart leaves a day without
// a reading as a gap and says where every number came from; windows compare side by side; a
// crawl change opens on its word diff and an unchanged page says what its empty list means;
// sites and pages are added and removed; best times are offered in the composer. Each screen
// passes axe, fits 375 px and is pictured for the README.
import { check, VIEWPORTS } from './screen-check';
import { type APIRequestContext } from '@playwright/test';
import { expect, test } from './test';
import { seed, signIn, sql, tag, utcDay, type Seed } from './staff-fixtures';

type InsightsSeed = Seed & { adAccounts: { id: string; name: string }[]; crawl: { siteId: string; pageIds: [string, string, string] } };
const demo = () => seed() as InsightsSeed;

async function get<T>(request: APIRequestContext, p: string): Promise<T> {
  const res = await request.get(`/public/v1${p}`, { headers: { authorization: `Bearer ${demo().apiKey}` } });
  expect(res.status(), `${p}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

/** A day of the seeded sandbox account without a reading, with readings on both sides. */
async function dayWithoutReading(request: APIRequestContext): Promise<string> {
  const accountId = demo().adAccounts[0]!.id;
  const { data } = await get<{ data: { date: string; hasReading: boolean }[] }>(
    request,
    `/metrics/daily?from=${utcDay(-59)}&to=${utcDay(-1)}&accountId=${accountId}&limit=100`,
  );
  for (let i = 3; i < data.length - 3; i += 1) {
    if (!data[i]!.hasReading && data[i - 1]!.hasReading && data[i + 1]!.hasReading) return data[i]!.date;
  }
  // The sandbox leaves about one day in nine empty; should this window have none, make one.
  const day = utcDay(-10);
  await sql('DELETE FROM "AdMetricDaily" WHERE "accountId" = $1 AND day = $2::date', [accountId, day]);
  return day;
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

test('analytics: a day without readings is a gap, every number has its source, windows compare', async ({ page, request }) => {
  const gap = await dayWithoutReading(request);
  const from = addDays(gap, -4);
  const to = addDays(gap, 4);
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: 'Ad accounts' }).click();
  await page.getByLabel('From', { exact: true }).fill(from);
  await page.getByLabel('To', { exact: true }).fill(to);
  await page.getByRole('button', { name: 'Show' }).click();

  const chart = page.getByTestId('metrics-chart');
  await expect(chart.locator('.recharts-line-curve').first()).toBeAttached();
  await expect(chart.getByText(/1 day without a reading, shown as gaps \(not zero\)|days without a reading, shown as gaps/)).toBeVisible();
  await expect(page.getByTestId('days-without-readings')).toContainText(gap);
  // The line is drawn in pieces: it stops before the empty day and starts again after it.
  const moves = await chart
    .locator('.recharts-line-curve')
    .evaluateAll((paths) => paths.map((p) => (p.getAttribute('d') ?? '').split('M').length - 1).reduce((a, b) => a + b, 0));
  expect(moves).toBeGreaterThanOrEqual(2);

  // Provenance under every total.
  const totals = page.getByTestId('totals');
  await expect(totals.getByTestId('total-impressions').getByTestId('provenance')).toContainText('Source:');
  expect(await totals.getByTestId('provenance').count()).toBe(8);
  await expect(page.getByTestId('provenance').first()).toContainText(/demo|sandbox/i);

  // Two windows side by side, with the change.
  await page.getByLabel(/Compare with another window/).check();
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(totals.getByTestId('delta').first()).toContainText('Change:');
  await expect(totals.getByText(`${addDays(from, -9)} – ${addDays(from, -1)}`).first()).toBeVisible();
  expect(await totals.getByTestId('provenance').count()).toBe(16);

  // Best times with their sample size.
  await expect(page.getByTestId('best-time-slot').first()).toContainText(/past deliver|platform default/);

  await page.getByLabel(/Compare with another window/).uncheck();
  await page.getByRole('button', { name: 'Show' }).click();
  for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
    await page.setViewportSize(size);
    await expect(chart.locator('.recharts-line-curve').first()).toBeAttached();
    await check(page, 'analytics', viewport);
  }
});

test('best times are suggested in the composer, with their sample size, and fill the schedule', async ({ page, request }) => {
  const { data } = await get<{ data: { slots: { localTime: string }[] } }>(request, '/best-times');
  await signIn(page);
  await page.goto('/compose');
  const suggestion = page.getByTestId('best-time-suggestion').first();
  await expect(suggestion).toContainText(/past deliver|platform default/);
  await suggestion.click();
  await expect(page.locator('#scheduled')).toHaveValue(data.slots[0]!.localTime);
});

test('crawl: pages with their last outcome, a page timeline, a change and its diff, emptyMeans in words', async ({ page }) => {
  const { crawl } = demo();
  const [home, pricing, sale] = crawl.pageIds;
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Crawl' }).click();
  await page.getByRole('link', { name: 'Demo Agency website' }).click();
  await expect(page.getByRole('heading', { name: 'Demo Agency website', level: 1 })).toBeVisible();
  await expect(page.getByTestId('crawl-page')).toHaveCount(3);
  await expect(page.getByTestId('crawl-page').first()).toContainText('ok');

  // The sale page's timeline keeps the visit that returned nothing, in the crawler's words.
  await page.getByRole('link', { name: 'https://www.demo-agency.example/spring-sale' }).click();
  await expect(page).toHaveURL(new RegExp(`/crawl/pages/${sale}`));
  await expect(page.getByTestId('crawl-visit')).toHaveCount(3);
  await expect(page.getByTestId('crawl-visit').nth(1)).toContainText('timeout');
  await expect(page.getByTestId('crawl-visit').nth(1)).toContainText('www.demo-agency.example did not answer within 15000 ms.');
  await expect(page.getByTestId('crawl-visit').nth(1)).toContainText('Returned nothing to read.');

  // The pricing page never changed: the empty list says what it means.
  await page.goto(`/crawl/pages/${pricing}?site=${crawl.siteId}`);
  await expect(page.getByTestId('empty-means')).toHaveText(/visited successfully in this window and nothing changed/);

  // The home page changed: its diff marks the words added and removed.
  await page.goto(`/crawl/pages/${home}?site=${crawl.siteId}`);
  await page.getByTestId('crawl-change').first().getByRole('link').click();
  await expect(page.getByRole('heading', { name: 'Change', level: 1 })).toBeVisible();
  const text = page.getByRole('region', { name: 'Main text: differences' });
  await expect(text.getByTestId('diff-added').filter({ hasText: 'booking' }).first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Title: differences' }).getByTestId('diff-added').filter({ hasText: 'sells' })).toHaveCount(1);
  const changeUrl = page.url();

  for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
    await page.setViewportSize(size);
    const screens: [string, string, () => Promise<void>][] = [
      ['crawl', '/crawl', () => expect(page.getByTestId('crawl-site').first()).toBeVisible()],
      ['crawl-site', `/crawl/sites/${crawl.siteId}`, () => expect(page.getByTestId('crawl-page').first()).toBeVisible()],
      ['crawl-page', `/crawl/pages/${home}?site=${crawl.siteId}`, () => expect(page.getByTestId('crawl-visit').first()).toBeVisible()],
      ['crawl-change', changeUrl, () => expect(page.getByTestId('diff').first()).toBeVisible()],
    ];
    for (const [name, url, ready] of screens) {
      await page.goto(url);
      await ready();
      await check(page, name, viewport);
    }
  }
});

test('crawl: sites and pages are added and removed', async ({ page }) => {
  const t = tag();
  const origin = `https://www-${t}.example.com`;
  await signIn(page);
  await page.goto('/crawl');
  await page.getByLabel('Name', { exact: true }).fill(`Shop ${t}`);
  const address = page.getByLabel('Address (https)');
  await address.fill(`http://www-${t}.example.com`);
  await page.getByRole('button', { name: 'Add site' }).click();
  await expect(page.getByText('must be an https URL')).toBeVisible();
  await address.fill(`${origin}/`);
  await page.getByRole('button', { name: 'Add site' }).click();
  const site = page.getByTestId('crawl-site').filter({ hasText: `Shop ${t}` });
  await expect(site).toContainText('never crawled');

  await site.getByRole('link', { name: `Shop ${t}` }).click();
  await expect(page.getByText('No tracked pages')).toBeVisible();
  await page.getByLabel('Track a page of this site').fill(`${origin}/about`);
  await page.getByRole('button', { name: 'Add page' }).click();
  const row = page.getByTestId('crawl-page').filter({ hasText: `${origin}/about` });
  await expect(row).toContainText('Not visited yet.');
  // A page of another origin is refused by the server, on the field.
  await page.getByLabel('Track a page of this site').fill('https://elsewhere.example.com/about');
  await page.getByRole('button', { name: 'Add page' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `The page must be on ${origin}` })).toBeVisible();

  await row.getByRole('button', { name: `Remove ${origin}/about` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('No tracked pages')).toBeVisible();

  await page.getByRole('link', { name: 'All sites' }).click();
  await page
    .getByTestId('crawl-site')
    .filter({ hasText: `Shop ${t}` })
    .getByRole('button', { name: `Remove Shop ${t}` })
    .click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByTestId('crawl-site').filter({ hasText: `Shop ${t}` })).toHaveCount(0);
});
