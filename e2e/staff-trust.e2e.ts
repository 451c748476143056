// The staff app, part 3: what an agency needs before trusting it with client work — a cancel
// that asks and can be undone, a cancelled post restored, media a reviewer can see, and one
// moment read identically everywhere in the workspace's zone.
import { type APIRequestContext } from '@playwright/test';
import { expect, test } from './test';
import { makePng } from '../server/media/testing/sample-images';
import { WORKSPACE_COOKIE } from '../app/(staff)/_lib/workspace-cookie';
import { connectSandbox, createClient, issueLink, serveLogo } from './client-links-fixtures';
import { account, api, signIn, sql, tag } from './staff-fixtures';
import { check, VIEWPORTS } from './screen-check';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** upload-url → PUT → complete through the public API (docs: POST /media/upload-url). */
async function uploadImage(request: APIRequestContext, key: string): Promise<string> {
  const bytes = makePng(640, 480);
  const created = await request.post('/public/v1/media/upload-url', {
    headers: bearer(key),
    data: { kind: 'image', contentType: 'image/png', bytes: bytes.length },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id, upload } = (await created.json()).data as { id: string; upload: { url: string; headers: Record<string, string> } };
  const headers = { ...upload.headers };
  delete headers['Content-Length'];
  const put = await request.put(upload.url, { headers, data: bytes });
  expect(put.status(), await put.text()).toBe(200);
  const done = await request.post(`/public/v1/media/${id}/complete`, { headers: bearer(key) });
  expect(done.status(), await done.text()).toBeLessThan(300);
  return id;
}

/** The moment as a person in `tz` reads it, written independently of the app's formatter. */
function readAs(iso: string, tz: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: tz,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute} ${parts.timeZoneName}`;
}

test('cancelling asks what will be lost, can be undone, and a cancelled post can be restored to a draft', async ({ page }) => {
  const t = tag();
  const at = new Date(Date.now() + 5 * 86_400_000).toISOString();
  const connectionIds = [account('linkedin').id, account('facebook').id];
  const { data: post } = await api(page.request, 'POST', '/posts', { content: `Cancel me ${t}`, connectionIds, scheduledAt: at });
  await signIn(page);

  // Asks first, saying what will not go out; "Keep" leaves it alone.
  await page.goto(`/posts/${post.id}`);
  await page.getByRole('button', { name: 'Cancel post' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this post?' });
  await expect(dialog).toContainText('Nothing will go out for 1 post, 2 accounts');
  await dialog.getByRole('button', { name: 'Keep' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await api(page.request, 'GET', `/posts/${post.id}`)).data.status).toBe('scheduled');

  // Cancel, then undo from the notice: scheduled again at the same moment.
  await page.getByRole('button', { name: 'Cancel post' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel 1 post, 2 accounts' }).click();
  await expect(page.getByText('1 post, 2 accounts cancelled')).toBeVisible();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('1 post restored')).toBeVisible();
  await expect.poll(async () => (await api(page.request, 'GET', `/posts/${post.id}`)).data).toMatchObject({ status: 'scheduled', scheduledAt: at });

  // Bulk: the selection's count of posts and accounts.
  const { data: second } = await api(page.request, 'POST', '/posts', {
    content: `Cancel me too ${t}`,
    connectionIds: [account('twitter').id],
    scheduledAt: at,
  });
  await page.goto('/posts');
  await page.getByLabel('Search').fill(t);
  await page.getByRole('checkbox', { name: `Select “Cancel me ${t}”` }).check();
  await page.getByRole('checkbox', { name: `Select “Cancel me too ${t}”` }).check();
  await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Cancel posts' }).click();
  await expect(page.getByRole('dialog', { name: 'Cancel 2 posts?' })).toContainText('Nothing will go out for 2 posts, 3 accounts');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel 2 posts, 3 accounts' }).click();
  await expect(page.getByText('2 posts, 3 accounts cancelled')).toBeVisible();
  expect((await api(page.request, 'GET', `/posts/${second.id}`)).data.status).toBe('cancelled');

  // Later, from the cancelled post's page: back to a draft.
  await page.goto(`/posts/${second.id}`);
  await page.getByRole('button', { name: 'Restore to draft' }).click();
  await expect(page.getByText('Restored to a draft')).toBeVisible();
  await expect.poll(async () => (await api(page.request, 'GET', `/posts/${second.id}`)).data).toMatchObject({ status: 'draft', scheduledAt: null });
});

test('one moment reads the same on the post page, the calendar and the review page of a workspace in Asia/Kolkata, with a thumbnail', async ({
  page,
  request,
  baseURL,
}) => {
  const t = tag();
  const { clientId, key } = await createClient(request, `Kolkata Kitchen ${t}`);
  // The client's zone, set by a member on the settings page below; the API created it in UTC.
  const connect = await issueLink(request, clientId, 'connect');
  const linkedin = await connectSandbox(request, connect.token, 'linkedin');
  const mediaId = await uploadImage(request, key);
  // 09:15 UTC is 14:45 in Kolkata: a half-hour zone shows any mistake.
  const day = new Date(Date.now() + 4 * 86_400_000);
  const at = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 9, 15)).toISOString();
  const created = await request.post('/public/v1/posts', {
    headers: bearer(key),
    data: { content: `Masala dosa week ${t}`, connectionIds: [linkedin], scheduledAt: at, mediaIds: [mediaId], requireApproval: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  const postId = (await created.json()).data.id as string;

  await signIn(page);
  await page.context().addCookies([{ name: WORKSPACE_COOKIE, value: clientId, url: baseURL! }]);
  await page.goto('/settings');
  // Chosen once the page is interactive: a choice made before hydration is not seen by the page.
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Workspace time zone').selectOption('Asia/Kolkata');
  await expect(page.getByTestId('time-zone-example')).toContainText('GMT+5:30');
  const save = page.getByRole('button', { name: 'Save time zone' });
  await Promise.all([page.waitForEvent('load'), save.click()]);
  // Reloaded in the new zone: nothing left to save.
  await expect(page.getByLabel('Workspace time zone')).toHaveValue('Asia/Kolkata');
  await expect(save).toBeDisabled();

  const expected = readAs(at, 'Asia/Kolkata');
  expect(expected).toContain('14:45 GMT+5:30');

  await page.goto(`/posts/${postId}`);
  await expect(page.getByText(`Scheduled: ${expected}`)).toBeVisible();
  await expect(page.getByRole('img', { name: 'Image 1 of 1' })).toBeVisible();

  // The queue shows what is approved: the image itself, loaded.
  await page.goto('/approvals');
  const item = page.getByTestId('approval-item').filter({ hasText: t });
  await expect(item).toContainText(expected);
  const thumb = item.getByRole('img', { name: 'Image 1 of 1' });
  await expect(thumb).toBeVisible();
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  await page.goto('/calendar');
  const calendarTitle = page.getByTestId('calendar-title');
  await expect(calendarTitle).toBeVisible();
  // Four days ahead may be next week: move on a week at a time, each time waiting for that
  // week's posts to arrive before looking (a look while loading would skip past it).
  const chip = page.locator(`[data-post-id="${postId}"]`);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  for (let i = 0; i < 2; i++) {
    if (await chip.isVisible().catch(() => false)) break;
    const before = await calendarTitle.innerText();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(calendarTitle).not.toHaveText(before);
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  }
  await expect(chip).toHaveAttribute('title', expected);
  await expect(chip).toContainText('14:45');
  await expect(chip.getByRole('img', { name: 'Media of the 14:45 post' })).toBeVisible();
  await expect(page.getByText('times in Asia/Kolkata (GMT+5:30)')).toBeVisible();

  // The client's review page: the same words, and the image.
  const review = await issueLink(request, clientId, 'review');
  await serveLogo(page);
  await page.goto(review.path);
  const card = page.locator(`[data-post-id="${postId}"]`);
  await expect(card).toContainText(`Goes out: ${expected}`);
  const reviewImage = card.getByRole('img', { name: 'Image 1 of the post' }).first();
  await expect(reviewImage).toBeVisible();
  await expect.poll(() => reviewImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
});

test('compose shows every problem at once, next to its field and in words, and takes the keyboard to the first', async ({ page }) => {
  await signIn(page);
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Agency \(X\)/ }).check();
  await page.getByRole('checkbox', { name: /Demo Agency \(Instagram\)/ }).check();
  await page.getByLabel('Text', { exact: true }).fill(`${'Long story about our bakery. '.repeat(12)}`);
  // Both networks' problems together, not one after the other.
  const problems = page.getByTestId('limit-error');
  await expect(problems).toHaveCount(2);
  await expect(problems.filter({ hasText: 'X (Twitter) allows 280 characters' })).toBeVisible();
  await expect(problems.filter({ hasText: 'Instagram posts need at least one image or video' })).toBeVisible();
  await expect(page.getByTestId('compose-problems')).toContainText('2 things to fix');
  // Scrolled away, then Schedule: the first problem's field takes the keyboard.
  await page.getByLabel(/^When/).fill('2030-01-01T10:00');
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByLabel('Text', { exact: true })).toBeFocused();
  // The summary's entries lead to their fields.
  await page
    .getByTestId('compose-problems')
    .getByRole('button', { name: /Instagram posts need/ })
    .click();
  await expect(page.getByLabel('Media URL').or(page.locator('#media-url'))).toBeFocused();
});

test('a failed account says what went wrong and what to do, keeps its attempts with their times, and is retried on its own', async ({ page }) => {
  const rejects = account('linkedin', 'rejects_posts');
  const { data: post } = await api(page.request, 'POST', '/posts', { content: `Hiring a baker ${tag()}`, connectionIds: [account('facebook').id, rejects.id] });
  await api(page.request, 'POST', `/posts/${post.id}/publish`);
  await signIn(page);
  await page.goto(`/posts/${post.id}`);
  const card = page.getByTestId('target-row').filter({ hasText: 'Careers' });
  // The network's words, verbatim, and what they mean with the next step.
  await expect(card).toContainText('DUPLICATE_POST');
  await expect(card.getByTestId('failure-guidance')).toContainText('refused it as a duplicate');
  // A post that partly went out cannot be edited: the guidance says what to do, and retry stays.
  await expect(card.getByRole('link', { name: 'Edit the post' })).toHaveCount(0);
  await card.getByText('Attempt history (1)').click();
  await expect(card.getByTestId('attempt-history')).toContainText(/\d{2}:\d{2}:\d{2} UTC — failed: .*DUPLICATE_POST/);
  try {
    await sql(`UPDATE "Connection" SET "sandboxBehavior" = 'ok' WHERE "id" = $1`, [rejects.id]);
    await card.getByRole('button', { name: `Retry this account: ${rejects.displayName}` }).click();
    await expect(card.getByRole('link', { name: 'See the demo post' })).toBeVisible();
    await card.getByText('Attempt history (2)').click();
    await expect(card.getByTestId('attempt-history').getByRole('listitem')).toHaveCount(2);
    await expect(card.getByTestId('attempt-history').getByRole('listitem').nth(1)).toContainText('published');
  } finally {
    await sql(`UPDATE "Connection" SET "sandboxBehavior" = 'rejects_posts' WHERE "id" = $1`, [rejects.id]);
  }
  // The account that landed the first time was not sent again.
  const after = (await api(page.request, 'GET', `/posts/${post.id}`)).data as unknown as {
    status: string;
    targets: { connectionId: string; attempts: number }[];
  };
  expect(after.status).toBe('published');
  expect(after.targets.find((t) => t.connectionId === account('facebook').id)!.attempts).toBe(1);
});

test('rejecting without a reason says what is missing; filters stay in the address; the switcher finds a client by name', async ({ page, request }) => {
  const t = tag();
  await api(request, 'POST', '/posts', {
    content: `Needs a look ${t}`,
    connectionIds: [account('linkedin').id],
    scheduledAt: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    requireApproval: true,
  });
  for (let i = 0; i < 6; i++) await createClient(request, `Switcher ${t} ${i === 3 ? 'Zebra Cafe' : `Client ${i}`}`);
  await signIn(page);

  await page.goto('/approvals');
  await page.getByTestId('approval-item').filter({ hasText: t }).getByRole('button', { name: 'Reject' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject the post' });
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(dialog.getByText('Say what should change')).toBeVisible();
  await expect(dialog.getByLabel('Reason')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Reason').fill('Use the spring photo');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(dialog).toHaveCount(0);

  await page.goto('/posts');
  await page.getByLabel('Status').selectOption('scheduled');
  await page.getByLabel('Search').fill(t);
  await expect(page).toHaveURL(/\/posts\?status=scheduled&search=/);
  await page.reload();
  await expect(page.getByLabel('Status')).toHaveValue('scheduled');
  await expect(page.getByLabel('Search')).toHaveValue(t);
  // A rejected post reads as what holds it, not also as "scheduled".
  const row = page.getByTestId('post-row').filter({ hasText: `Needs a look ${t}` });
  await expect(row).toContainText('rejected: needs changes');
  await expect(row.getByText('scheduled', { exact: true })).toHaveCount(0);

  await page.getByRole('button', { name: /Switch workspace/ }).click();
  await page.getByRole('searchbox', { name: 'Find a workspace' }).fill('zebra');
  await expect(page.getByRole('menuitem', { name: new RegExp(`Switcher ${t} Zebra Cafe`) })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: new RegExp(`Switcher ${t} Client 0`) })).toHaveCount(0);
});

test('an article network previews the article a post makes: the title setting, else the first line', async ({ page }) => {
  await signIn(page);
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Agency \(Dev\.to\)/ }).check();
  await page.getByLabel('Text', { exact: true }).fill('## Autumn menu\n\nPumpkin spice is back, and so are the cinnamon buns.');
  await page.getByRole('tab', { name: 'Dev.to' }).click();
  const preview = page.getByTestId('article-preview-devto');
  await expect(preview.getByRole('heading')).toHaveText('Autumn menu');
  await expect(preview).toContainText('Pumpkin spice is back, and so are the cinnamon buns.');
  await expect(preview).not.toContainText('##');
  // WordPress.com writes the same article (WordPress's rules), pictured for the README.
  await page.getByRole('checkbox', { name: /Demo Agency News \(WordPress\.com\)/ }).check();
  await page.getByRole('tab', { name: 'WordPress.com' }).click();
  await expect(page.getByTestId('article-preview-wordpress_com').getByRole('heading')).toHaveText('Autumn menu');
  for (const viewport of ['desktop', 'mobile'] as const) {
    await page.setViewportSize(VIEWPORTS[viewport]);
    await check(page, 'compose-article', viewport);
  }
});
