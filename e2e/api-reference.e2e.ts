// The API reference (no login): the page loads the contract document from Herald and the
// renderer from Herald (never a CDN: the page's CSP allows no other origin), and shows the
// operations of the document.
import { expect, test } from './test';

test('the API reference renders the live document without login, from Herald alone', async ({ page, baseURL }) => {
  const foreign: string[] = [];
  // Loaded from elsewhere (the renderer's stylesheet names web fonts on its own CDN; the page's
  // CSP refuses them, so the fonts fall back and nothing leaves Herald).
  page.on('requestfinished', (req) => {
    if (!req.url().startsWith(baseURL!) && !req.url().startsWith('data:') && !req.url().startsWith('blob:')) foreign.push(req.url());
  });
  const res = await page.goto('/api-reference');
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toContain("connect-src 'self'");
  // An operation of the document, by its summary, and a webhook event.
  await expect(page.getByText('Create a draft, a scheduled post, or a post in the next free queue slot').first()).toBeVisible({ timeout: 30_000 });
  // The webhooks the document describes get a sidebar group of their own, beside the
  // Webhooks tag of the endpoint-management routes: two groups of that name.
  await expect(page.getByRole('button', { name: 'Open Group - Webhooks' })).toHaveCount(2);
  expect(foreign).toEqual([]);
});

test('serves the renderer bundle from Herald itself', async ({ request }) => {
  const renderer = await request.get('/api-reference/renderer.js');
  expect(renderer.status()).toBe(200);
  expect(renderer.headers()['content-type']).toContain('javascript');
});
