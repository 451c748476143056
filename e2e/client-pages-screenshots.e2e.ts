// Screenshots of the client pages for the README (docs/screenshots/), desktop and 375 px,
// taken from the running app with realistic data.
import path from 'node:path';
import { expect, test } from './test';
import { analyzeAccessibility } from './screen-check';
import { connectSandbox, createClient, issueLink, pendingPost, serveLogo } from './client-links-fixtures';

const OUT = path.resolve('docs/screenshots');
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, mobile: { width: 375, height: 812 } } as const;

test('screenshots of the connect and review pages', async ({ page, request }) => {
  const { clientId, key } = await createClient(request, 'Harbor Bakery');
  const connect = await issueLink(request, clientId, 'connect');
  const linkedin = await connectSandbox(request, connect.token, 'linkedin');
  const facebook = await connectSandbox(request, connect.token, 'facebook');
  await connectSandbox(request, connect.token, 'twitter');
  await pendingPost(request, key, [linkedin, facebook], 'Fresh sourdough every morning from 7am.\n\nCome early: the cinnamon buns sell out by nine!');
  await pendingPost(request, key, [linkedin], 'We are hiring a weekend baker. Send us a message if you love early mornings.');
  const review = await issueLink(request, clientId, 'review');
  await serveLogo(page);

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await page.goto(connect.path);
    await expect(page.getByTestId('connected-accounts')).toBeVisible();
    // Connected accounts with long handles never widen the page (it overflowed at 375 px).
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `connect page (${name})`).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: path.join(OUT, `connect-${name}.png`), fullPage: true });
    await page.goto(review.path);
    await expect(page.getByTestId('review-post').first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `review page (${name})`).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: path.join(OUT, `review-${name}.png`), fullPage: true });
  }
});

test('a demo account’s permalink opens Herald’s page of the demo post, never the network', async ({ page, request }) => {
  const { clientId, key } = await createClient(request, 'Harbor Bakery Demo');
  const connect = await issueLink(request, clientId, 'connect');
  const mastodon = await connectSandbox(request, connect.token, 'mastodon');
  const created = await request.post('/public/v1/posts', {
    headers: { authorization: `Bearer ${key}` },
    data: { content: 'Cinnamon buns are back on Saturday.', connectionIds: [mastodon] },
  });
  const postId = (await created.json()).data.id as string;
  const published = await request.post(`/public/v1/posts/${postId}/publish`, { headers: { authorization: `Bearer ${key}` } });
  const target = (await published.json()).data.targets[0] as { status: string; permalink: string };
  expect(target.status).toBe('published');
  const permalink = new URL(target.permalink);
  expect(permalink.origin).toBe(new URL(page.url() === 'about:blank' ? test.info().project.use.baseURL! : page.url()).origin);
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await page.goto(permalink.pathname);
    await expect(page.getByTestId('demo-post')).toContainText('Cinnamon buns are back on Saturday.');
    await expect(page.getByRole('note')).toContainText('Nothing was posted to Mastodon');
    expect(await page.locator('a[href^="http"]').count()).toBe(0);
    const serious = (await analyzeAccessibility(page)).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => v.id)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: path.join(OUT, `demo-post-${name}.png`), fullPage: true });
  }
  // Anything else at that address is not found.
  expect((await page.goto('/demo-post/mastodon/999'))!.status()).toBe(404);
});
