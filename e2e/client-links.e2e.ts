// The client's side, in Chromium against `next start`: the hosted connect page (brand, logo,
// a sandbox account connected and listed, expired and revoked links) and the review link
// (approve one post, reject one with a comment, the outcome read back through the API).
import { analyzeAccessibility } from './screen-check';
import { type Page } from '@playwright/test';
import { expect, test } from './test';
import { connectSandbox, createClient, expireLinks, issueLink, LOGO_URL, pendingPost, serveLogo } from './client-links-fixtures';

async function expectAccessible(page: Page) {
  const results = await analyzeAccessibility(page);
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('a client opens the connect link, sees the brand, connects a sandbox account and sees it listed', async ({ page, request }) => {
  const { clientId, key } = await createClient(request, 'Harbor Bakery');
  const link = await issueLink(request, clientId, 'connect');
  await serveLogo(page);
  await page.goto(link.path);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connect Harbor Bakery’s accounts');
  await expect(page.getByText('Northwind Studio', { exact: true })).toBeVisible();
  const logo = page.getByRole('img', { name: 'Northwind Studio logo' });
  await expect(logo).toHaveAttribute('src', LOGO_URL);
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByText('No accounts connected yet.')).toBeVisible();
  await expectAccessible(page);

  // Keyboard: the channel buttons are reachable and work with Enter.
  const linkedin = page.getByRole('button', { name: /Connect LinkedIn/ });
  await linkedin.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('connect-confirmation')).toHaveText('Connected Harbor Bakery (demo) on LinkedIn.');
  const accounts = page.getByTestId('connected-accounts');
  await expect(accounts).toContainText('Harbor Bakery (demo)');
  await expect(accounts).toContainText('Connected');
  await expectAccessible(page);

  // The agency sees it through the API with the client's key.
  const connections = await request.get('/public/v1/connections', { headers: { authorization: `Bearer ${key}` } });
  expect((await connections.json()).data.map((c: { platform: string }) => c.platform)).toEqual(['linkedin']);
});

test('revoked and expired links show their own pages', async ({ page, request }) => {
  const { clientId } = await createClient(request, 'Old Mill');
  const first = await issueLink(request, clientId, 'connect');
  await issueLink(request, clientId, 'connect', { rotate: true });
  await page.goto(first.path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link is no longer valid');
  await expectAccessible(page);

  const { clientId: other } = await createClient(request, 'Quay Cafe');
  const expiring = await issueLink(request, other, 'connect');
  await expireLinks(other);
  await page.goto(expiring.path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link has expired');
  const review = await issueLink(request, other, 'review');
  await expireLinks(other);
  await page.goto(review.path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link has expired');
});

test('a client approves one post and rejects another with a comment on the review link', async ({ page, request }) => {
  const { clientId, key } = await createClient(request, 'Harbor Bakery');
  const connect = await issueLink(request, clientId, 'connect');
  const linkedin = await connectSandbox(request, connect.token, 'linkedin');
  const facebook = await connectSandbox(request, connect.token, 'facebook');
  const approveMe = await pendingPost(request, key, [linkedin, facebook], 'Fresh sourdough every morning from 7am. Come early!');
  const rejectMe = await pendingPost(request, key, [linkedin], 'Our prices are going up next week.');
  const link = await issueLink(request, clientId, 'review');

  await serveLogo(page);
  await page.goto(link.path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Posts for Harbor Bakery awaiting your approval');
  const first = page.locator(`[data-post-id="${approveMe}"]`);
  const second = page.locator(`[data-post-id="${rejectMe}"]`);
  await expect(first.getByRole('region', { name: 'LinkedIn preview' })).toContainText('Fresh sourdough');
  await expect(first.getByRole('region', { name: 'Facebook preview' })).toContainText('Fresh sourdough');
  await expectAccessible(page);

  await first.getByRole('button', { name: 'Approve' }).click();
  await expect(first.getByRole('status')).toHaveText('Approved. Thank you!');

  await second.getByRole('button', { name: 'Request changes' }).click();
  await second.getByLabel('What should change?').fill('Please wait until the new menu is printed.');
  await second.getByRole('button', { name: 'Send back with comment' }).click();
  await expect(second.getByRole('status')).toHaveText('Sent back with your comment.');

  const headers = { authorization: `Bearer ${key}` };
  expect((await (await request.get(`/public/v1/posts/${approveMe}`, { headers })).json()).data.approvalStatus).toBe('approved');
  expect((await (await request.get(`/public/v1/posts/${rejectMe}`, { headers })).json()).data.approvalStatus).toBe('rejected');
  await page.reload();
  await expect(page.getByText('Nothing is waiting for you right now.')).toBeVisible();
});
