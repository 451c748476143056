// Post results in Chromium: Analytics' Post results view ranks the seeded posts by what they
// did (resorted by a column, exported as CSV), a published post shows each account's results
// with a chart of its readings, and a client opens a branded, no-login report of a date range
// with its PDF. Each screen passes axe, fits 375 px and is pictured for the README.
import path from 'node:path';
import { type APIRequestContext } from '@playwright/test';
import { expect, test } from './test';
import { connectSandbox, createClient, issueLink, LOGO_URL, serveLogo } from './client-links-fixtures';
import { analyzeAccessibility, check, VIEWPORTS } from './screen-check';
import { seed, signIn, sql, utcDay } from './staff-fixtures';

const OUT = path.resolve('docs/screenshots');

async function api<T>(request: APIRequestContext, key: string, method: 'GET' | 'POST', p: string, data?: unknown): Promise<T> {
  const res = await request.fetch(`/public/v1${p}`, { method, headers: { authorization: `Bearer ${key}` }, data });
  expect(res.status(), `${method} ${p}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as T;
}

test('Analytics ranks published posts by their results, resorts by a column, exports CSV', async ({ page }) => {
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('tab', { name: 'Post results' })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('Published from').fill(utcDay(-89));
  await page.getByLabel('To', { exact: true }).fill(utcDay(0));
  await page.getByRole('button', { name: 'Show' }).click();

  const table = page.getByTestId('post-results');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await expect(page.getByTestId('post-results-provenance')).toContainText(/published in the window, \d+ with a reading/);
  await expect(table.locator('th[aria-sort="descending"]')).toContainText('Engagement');

  await table.getByRole('button', { name: 'Comments' }).click();
  await expect(table.locator('th[aria-sort="descending"]')).toContainText('Comments');
  await expect(page).toHaveURL(/sort=comments/);
  // Column 8: #, Post, Engagement, Impressions, Reach, Views, Reactions, Comments. The new ranking arrives after the click.
  const commentsColumn = async () => {
    const cells = await table.locator('tbody tr td:nth-child(8)').allInnerTexts();
    return cells.map((c) => Number(c.replace(/[^\d]/g, ''))).filter((n) => !Number.isNaN(n));
  };
  await expect
    .poll(async () => {
      const numbers = await commentsColumn();
      return numbers.length > 1 && numbers.every((n, i) => i === 0 || numbers[i - 1]! >= n);
    })
    .toBe(true);

  // The networks compared over the same window.
  await expect(page.getByTestId('post-results-networks').getByRole('listitem').first()).toContainText('Engagement');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /Export the window’s posts and results as CSV/ }).click();
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);

  for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
    await page.setViewportSize(size);
    // The table from sm up, a card per post on a phone.
    await expect(viewport === 'desktop' ? table : page.getByRole('list', { name: 'Top posts' })).toBeVisible();
    await check(page, 'analytics-posts', viewport);
  }
});

test('a published post shows each account’s results, with a chart of its readings', async ({ page, request }) => {
  const top = await api<{ data: { postId: string }[] }>(request, seed().apiKey, 'GET', `/analytics/top-posts?from=${utcDay(-89)}&to=${utcDay(0)}&limit=1`);
  await signIn(page);
  await page.goto(`/posts/${top.data[0]!.postId}`);
  await expect(page.getByRole('heading', { name: 'Results', level: 2 })).toBeVisible();
  const card = page.getByTestId('post-result').first();
  await expect(card).toContainText('Engagement');
  await expect(card.locator('.recharts-line-curve').first()).toBeAttached();
  for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
    await page.setViewportSize(size);
    await expect(card).toBeVisible();
    await check(page, 'post-results', viewport);
  }
});

test('a client opens a branded report of a date range, with its numbers, top posts and PDF', async ({ page, request }) => {
  const { clientId, key } = await createClient(request, 'Harbor Bakery');
  const connect = await issueLink(request, clientId, 'connect');
  const accounts = [await connectSandbox(request, connect.token, 'linkedin'), await connectSandbox(request, connect.token, 'bluesky')];
  const post = await api<{ data: { id: string } }>(request, key, 'POST', '/posts', {
    content: 'Fresh sourdough every morning from 7am.',
    connectionIds: accounts,
  });
  await api(request, key, 'POST', `/posts/${post.data.id}/publish`);
  // Published three days ago, so its (sandbox) results have had time to grow before the reading.
  await sql(`UPDATE "Post" SET "publishedAt" = now() - interval '3 days' WHERE "id" = $1::uuid`, [post.data.id]);
  await sql(`UPDATE "PostTarget" SET "publishedAt" = now() - interval '3 days' WHERE "postId" = $1::uuid`, [post.data.id]);
  await api(request, key, 'POST', `/posts/${post.data.id}/metrics/collect`);
  await expect
    .poll(async () =>
      (await api<{ data: { targets: { latest: unknown }[] } }>(request, key, 'GET', `/posts/${post.data.id}/metrics`)).data.targets.every((t) => t.latest),
    )
    .toBe(true);

  const res = await request.post(`/public/v1/workspaces/${clientId}/report-url`, {
    headers: { authorization: `Bearer ${seed().apiKey}` },
    data: { from: utcDay(-6), to: utcDay(0), title: 'Harbor Bakery this week', brand: { name: 'Northwind Studio', logoUrl: LOGO_URL } },
  });
  expect(res.status(), await res.text()).toBe(201);
  const link = new URL((await res.json()).data.url as string);
  await serveLogo(page);
  await page.goto(link.pathname);

  await expect(page.getByRole('heading', { level: 1 })).toContainText('Harbor Bakery this week');
  await expect(page.getByTestId('report-stat').first()).toBeVisible();
  await expect(page.getByTestId('report-coverage')).toContainText(/1 of 1 post/);
  await expect(page.getByTestId('report-top-post').first()).toContainText('Fresh sourdough');
  // Three days of growth: the headline engagement is a number above zero, not a placeholder.
  await expect(page.getByTestId('report-stat').filter({ hasText: 'Engagement' })).toContainText(/[1-9]/);
  await expect(page.getByTestId('report-chart')).toBeVisible();
  expect((await analyzeAccessibility(page)).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  const pdf = await request.get(
    await page
      .getByTestId('report-pdf')
      .getAttribute('href')
      .then((h) => h!),
  );
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

  for (const [name, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(OUT, `report-${name}.png`), fullPage: true });
  }
});
