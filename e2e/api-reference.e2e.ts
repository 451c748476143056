// The API reference (no login): the page loads the contract document from Herald and the
// renderer from Herald (never a CDN: the page's CSP allows no other origin), and shows the
// operations of the document.
import { expect, test } from '@playwright/test';

test('the API reference renders the live document without login, from Herald alone', async ({ page, baseURL, request }) => {
  // The renderer is a dependency (@scalar/api-reference); a checkout installed without it
  // answers 503 for the bundle, and there is nothing to render.
  test.skip((await request.get('/api-reference/renderer.js')).status() === 503, 'the renderer package is not installed');
  const foreign: string[] = [];
  page.on('request', (req) => {
    if (!req.url().startsWith(baseURL!) && !req.url().startsWith('data:') && !req.url().startsWith('blob:')) foreign.push(req.url());
  });
  const res = await page.goto('/api-reference');
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toContain("connect-src 'self'");
  // An operation of the document, by its summary, and a webhook event.
  await expect(page.getByText('Create a draft or a scheduled post').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('post.published').first()).toBeVisible();
  expect(foreign).toEqual([]);
});

test('serves the renderer bundle from Herald itself', async ({ request }) => {
  const renderer = await request.get('/api-reference/renderer.js');
  test.skip(renderer.status() === 503, 'the renderer package is not installed');
  expect(renderer.status()).toBe(200);
  expect(renderer.headers()['content-type']).toContain('javascript');
});
