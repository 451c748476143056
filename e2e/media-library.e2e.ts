// The media library in Chromium: a member uploads an image from the library, finds it by name
// (the search stays in the address), reuses it in a new post, sees it can no longer be deleted
// (the post using it listed and linked; the API refuses with MEDIA_IN_USE), and deletes it once
// that post is cancelled. Axe-clean, fits 375 px, pictured for the README.
import { expect, test } from './test';
import { makePng } from '../server/media/testing/sample-images';
import { makeSampleMp4 } from './fixtures/sample-mp4';
import { analyzeAccessibility, check, VIEWPORTS } from './screen-check';
import { api, seed, signIn, tag } from './staff-fixtures';

test('upload, find by name, reuse in a new post, delete refused while used, deleted once unused', async ({ page, request }) => {
  const t = tag();
  const name = `shopfront-${t}.png`;
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Media library' }).click();
  await expect(page.getByRole('heading', { name: 'Media library' })).toBeVisible();

  await page.getByTestId('library-upload-input').setInputFiles({ name, mimeType: 'image/png', buffer: makePng(1200, 800) });
  await expect(page.getByText(`${name} uploaded`)).toBeVisible();
  const teaser = `teaser-${t}.mp4`;
  await page.getByTestId('library-upload-input').setInputFiles({ name: teaser, mimeType: 'video/mp4', buffer: makeSampleMp4() });
  await expect(page.getByText(`${teaser} uploaded`)).toBeVisible();
  const items = page.getByTestId('library-item');
  await expect(items.filter({ hasText: name })).toBeVisible();
  await expect(items.filter({ hasText: teaser })).toContainText('Video');

  // Found by part of its name, in any case, and by kind; the filters live in the address.
  await page.getByLabel('Name', { exact: true }).fill(t);
  await expect(items).toHaveCount(2);
  await page.getByLabel('Kind').selectOption({ label: 'Videos' });
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(teaser);
  await page.getByLabel('Kind').selectOption({ label: 'Images' });
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(name);
  await page.getByLabel('Kind').selectOption({ label: 'Images and videos' });
  await page.getByLabel('Name', { exact: true }).fill(`SHOPFRONT-${t}`);
  await expect(items).toHaveCount(1);
  await expect(page).toHaveURL(new RegExp(`\\?search=SHOPFRONT-${t}$`));
  await page.reload();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(`SHOPFRONT-${t}`);
  await expect(items).toHaveCount(1);
  const item = items.filter({ hasText: name });
  await expect(item).toContainText(name);
  await expect(item).toContainText('1200×800');
  await expect(item.getByRole('img', { name })).toBeVisible();
  await expect(item.getByTestId('usage')).toHaveText('Not used');
  // A day before anything was added: nothing.
  await page.getByLabel('Added to').fill('2020-01-01');
  await expect(page.getByText('No media match these filters')).toBeVisible();
  await page.getByLabel('Added to').fill('');
  await expect(items).toHaveCount(1);

  // Reused in a new post: the composer opens with the asset attached.
  await item.getByRole('link', { name: `Use ${name} in a new post` }).click();
  await expect(page).toHaveURL(/\/compose\?media=[0-9a-f-]{36}$/);
  const assetId = new URL(page.url()).searchParams.get('media')!;
  await expect(page.getByRole('button', { name: `Remove ${name}` })).toBeVisible();
  // The composer's picker shows the same library, with this one already attached.
  await page.getByRole('button', { name: 'From library' }).click();
  const picker = page.getByRole('dialog', { name: 'Attach from the media library' });
  await picker.getByLabel('Name', { exact: true }).fill(t);
  await expect(picker.getByRole('button', { name: `${name} (attached)` })).toBeDisabled();
  await picker.getByRole('button', { name: 'Done' }).click();

  await page.getByRole('checkbox', { name: /Demo Agency \(LinkedIn\)/ }).check();
  const text = `Our new shopfront ${t}: come and see the autumn window.`;
  await page.getByLabel('Text', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]{36}$/);
  const postId = page.url().split('/').at(-1)!;
  await expect(page.getByTestId('media-thumbnails')).toBeVisible();
  const post = (await api(request, 'GET', `/posts/${postId}`)).data;
  expect(post.mediaUrls as string[]).toHaveLength(1);

  // In use: the library says so, and deleting is refused with the post listed and linked.
  await page.goto(`/media-library?search=${t}`);
  await expect(item.getByTestId('usage')).toHaveText('In 1 post');
  await item.getByRole('button', { name: `Delete ${name}` }).click();
  const refusal = page.getByRole('dialog', { name: `${name} is in use` });
  await expect(refusal).toContainText('cannot be deleted');
  await expect(refusal.getByRole('link', { name: new RegExp(`Our new shopfront ${t}`) })).toHaveAttribute('href', `/posts/${postId}`);
  expect((await analyzeAccessibility(page)).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await refusal.getByTestId('media-in-use').getByRole('button', { name: 'Close' }).click();
  const refused = await request.fetch(`/public/v1/media/${assetId}`, { method: 'DELETE', headers: { authorization: `Bearer ${seed().apiKey}` } });
  expect(refused.status()).toBe(409);
  const body = (await refused.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe('MEDIA_IN_USE');
  expect(body.error.message).toContain(postId);

  for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
    await page.setViewportSize(size);
    await page.goto('/media-library');
    await expect(items.filter({ hasText: name })).toBeVisible();
    await expect(page.getByRole('img', { name }).first()).toBeVisible();
    await check(page, 'media-library', viewport);
  }
  await page.setViewportSize(VIEWPORTS.desktop);

  // Once the post is cancelled nothing uses the file: deleting asks first, then removes it.
  await api(request, 'DELETE', `/posts/${postId}`);
  await page.goto(`/media-library?search=${t}`);
  await expect(item.getByTestId('usage')).toHaveText('Not used');
  await item.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete ${name}?` });
  await expect(confirm).toContainText('No post uses it');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`${name} deleted`)).toBeVisible();
  await expect(item).toHaveCount(0);
  const teaserRow = (await api(request, 'GET', `/media?search=${encodeURIComponent(teaser)}`)) as unknown as { data: { id: string }[] };
  const remove = (id: string) => request.fetch(`/public/v1/media/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${seed().apiKey}` } });
  expect((await remove(teaserRow.data[0]!.id)).status()).toBe(204);
  expect((await remove(assetId)).status()).toBe(404);
});
