// The API reference (no login): the page loads the contract document from Herald and the
// renderer from Herald (never a CDN: the page's CSP allows no other origin), and shows the
// operations of the document.
import { expect, test } from '@playwright/test';

test('the API reference renders the live document without login, from Herald alone', async ({ page, baseURL }) => {
  const foreign: string[] = [];
  page.on('request', (req) => {
    if (!req.url().startsWith(baseURL!) && !req.url().startsWith('data:') && !req.url().startsWith('blob:')) foreign.push(req.url());
  });
  const res = await page.goto('/api-reference');
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toContain("connect-src 'self'");
  // An operation of the document, by its summary, and a webhook event.
  await expect(page.getByText('Create a draft, a scheduled post, or a post in the next free queue slot').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('post.published').first()).toBeVisible();
  expect(foreign).toEqual([]);
});

test('serves the renderer bundle from Herald itself', async ({ request }) => {
  const renderer = await request.get('/api-reference/renderer.js');
  expect(renderer.status()).toBe(200);
  expect(renderer.headers()['content-type']).toContain('javascript');
});
