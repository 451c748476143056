// Screenshots of the client pages for the README (docs/screenshots/), desktop and 375 px,
// taken from the running app with realistic data.
import path from 'node:path';
import { expect, test } from './test';
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
    await page.screenshot({ path: path.join(OUT, `connect-${name}.png`), fullPage: true });
    await page.goto(review.path);
    await expect(page.getByTestId('review-post').first()).toBeVisible();
    await page.screenshot({ path: path.join(OUT, `review-${name}.png`), fullPage: true });
  }
});
