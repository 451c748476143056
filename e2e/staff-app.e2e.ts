// A week of client posting run from the staff app, end to end against `next start`: compose
// with a variant and an uploaded image, request approval, approve from the queue, publish and
// read every outcome; a partial failure and its retry; drag in the calendar; a bulk shift; a
// duplicate resolved; an overdue post alerted.
import { expect, test } from './test';
import { makePng } from '../server/media/testing/sample-images';
import { account, api, mondayIn, seed, signIn, sql, tag, utcDay } from './staff-fixtures';

test.describe.configure({ mode: 'serial' });

test('compose to three accounts, request approval, approve in the queue, publish and read every outcome', async ({ page }) => {
  const t = tag();
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compose' }).click();
  await page.getByRole('checkbox', { name: /Demo Agency \(LinkedIn\)/ }).check();
  await page.getByRole('checkbox', { name: /Demo Agency \(X\)/ }).check();
  await page.getByRole('checkbox', { name: /Demo Agency \(Facebook Page\)/ }).check();
  // An expired account cannot be picked, and says why.
  await expect(page.getByRole('checkbox', { name: /Archive \(X, token expired\)/ })).toBeDisabled();

  await page.getByLabel('Text', { exact: true }).fill(`Our autumn menu is here ${t}: pumpkin soup, apple pie and more. Come and taste it this weekend!`);
  await expect(page.getByTestId('counter-twitter')).toContainText('/280');
  // Over X's limit, the catalogue's weighted count refuses it before anything is sent.
  await page.getByLabel('Different text for X (Twitter)').check();
  await page.getByLabel('X (Twitter) text').fill('🍂'.repeat(141));
  await expect(page.getByTestId('counter-twitter')).toContainText('282/280');
  await expect(page.getByTestId('limit-error')).toContainText('X (Twitter) allows 280 characters');
  await page.getByLabel('X (Twitter) text').fill(`Autumn menu ${t} 🍂 pumpkin soup + apple pie`);
  await expect(page.getByTestId('limit-error')).toHaveCount(0);

  await page.getByTestId('media-input').setInputFiles({ name: 'autumn.png', mimeType: 'image/png', buffer: makePng(1600, 1000) });
  const progress = page.getByRole('progressbar', { name: 'Upload of autumn.png' });
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByText(/^image · \d+ KB/)).toBeVisible();
  await page.getByTestId('media-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByText('notes.txt: text/plain is not accepted')).toBeVisible();

  await page.getByLabel('First comment', { exact: true }).fill('Full menu on our website');
  await page.getByRole('tab', { name: 'X (Twitter)' }).click();
  await expect(page.getByTestId('preview-twitter')).toContainText(`Autumn menu ${t}`);

  // An error only the server can know lands on the field it names.
  await page.getByLabel(/^When/).fill(`${utcDay(-1)}T10:00`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  // …in words, with the keyboard moved to it.
  await expect(page.getByRole('alert').filter({ hasText: 'That time has already passed. Pick a time from now on.' })).toBeVisible();
  await expect(page.getByLabel(/^When/)).toBeFocused();

  // Leaving with unsaved changes asks first.
  page.once('dialog', (dialog) => void dialog.dismiss());
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/compose$/);

  await page.getByLabel(/^When/).fill(`${utcDay(2)}T10:00`);
  await page.getByRole('button', { name: 'Request approval' }).click();
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]{36}$/);
  const postId = page.url().split('/').at(-1)!;
  await expect(page.getByText('awaiting approval')).toBeVisible();
  await expect(page.getByTestId('count-approvals')).toBeVisible();

  // The reviewer's queue, by keyboard: move to the post, approve with "a".
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /Approvals/ })
    .click();
  const items = page.getByTestId('approval-item');
  await expect(items.filter({ hasText: t })).toBeVisible();
  const index = (await items.allTextContents()).findIndex((text) => text.includes(t));
  for (let i = 0; i < index; i++) await page.keyboard.press('j');
  await expect(items.nth(index)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('a');
  await expect(page.getByText('Approved')).toBeVisible();
  await expect(items.filter({ hasText: t })).toHaveCount(0);

  await page.goto(`/posts/${postId}`);
  await expect(page.getByTestId('approval-trail')).toContainText(/Approval asked by: .+Approved by: /);
  await page.getByRole('button', { name: 'Publish now' }).click();
  const rows = page.getByTestId('target-row');
  await expect(rows).toHaveCount(3);
  // Sandbox accounts: each permalink is Herald's page of the demo post, never the network's.
  for (const row of await rows.all()) await expect(row.getByRole('link', { name: 'See the demo post' })).toHaveAttribute('href', /\/demo-post\//);
  await expect(page.getByText('published', { exact: true }).first()).toBeVisible();
});

test('a partial failure shows the platform error verbatim, and retrying the failed account works', async ({ page, request }) => {
  const rejects = account('linkedin', 'rejects_posts');
  const created = await api(request, 'POST', '/posts', { content: `Hiring a barista ${tag()}`, connectionIds: [account('facebook').id, rejects.id] });
  await signIn(page);
  await page.goto(`/posts/${created.data.id}`);
  await page.getByRole('button', { name: 'Publish now' }).click();
  const failed = page.getByTestId('target-row').filter({ hasText: 'Careers' });
  await expect(failed).toContainText('DUPLICATE_POST');
  await expect(page.getByText('partly published').first()).toBeVisible();
  try {
    // The account is fixed on the platform's side.
    await sql(`UPDATE "Connection" SET "sandboxBehavior" = 'ok' WHERE "id" = $1`, [rejects.id]);
    await page.getByRole('button', { name: 'Retry failed accounts' }).click();
    await expect(failed.getByRole('link', { name: 'See the demo post' })).toBeVisible();
    await expect(failed).toContainText('2');
    await expect(page.getByRole('button', { name: 'Retry failed accounts' })).toHaveCount(0);
  } finally {
    await sql(`UPDATE "Connection" SET "sandboxBehavior" = 'rejects_posts' WHERE "id" = $1`, [rejects.id]);
  }
  expect((await api(request, 'GET', `/posts/${created.data.id}`)).data.status).toBe('published');
});

test('dragging a post to another day in the calendar reschedules it, as the API then says', async ({ page, request }) => {
  const wednesday = utcDay(2, new Date(`${mondayIn(1)}T00:00:00Z`));
  const thursday = utcDay(3, new Date(`${mondayIn(1)}T00:00:00Z`));
  const created = await api(request, 'POST', '/posts', {
    content: `Calendar ${tag()}`,
    connectionIds: [account('linkedin').id],
    scheduledAt: `${wednesday}T10:30:00.000Z`,
  });
  await signIn(page);
  await page.goto('/calendar');
  await page.getByRole('button', { name: 'Next' }).click();
  const chip = page.getByTestId(`day-${wednesday}`).locator(`[data-post-id="${created.data.id}"]`);
  await expect(chip).toBeVisible();
  const from = (await chip.getByTestId('drag-handle').boundingBox())!;
  const to = (await page.getByTestId(`day-${thursday}`).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 30, from.y + from.height / 2 + 5, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
  await page.mouse.up();
  await expect(page.getByTestId(`day-${thursday}`).locator(`[data-post-id="${created.data.id}"]`)).toBeVisible();
  await expect.poll(async () => (await api(request, 'GET', `/posts/${created.data.id}`)).data.scheduledAt).toBe(`${thursday}T10:30:00.000Z`);
});

test('a bulk shift moves a week of posts by seven days', async ({ page, request }) => {
  const monday = mondayIn(30);
  const sunday = utcDay(6, new Date(`${monday}T00:00:00Z`));
  const posts = [];
  for (const [day, time] of [
    [monday, '09:00'],
    [utcDay(3, new Date(`${monday}T00:00:00Z`)), '15:45'],
    [sunday, '20:00'],
  ] as const) {
    posts.push(
      (await api(request, 'POST', '/posts', { content: `Week ${day} ${tag()}`, connectionIds: [account('threads').id], scheduledAt: `${day}T${time}:00.000Z` }))
        .data,
    );
  }
  await signIn(page);
  await page.goto('/posts');
  await page.getByRole('button', { name: 'Shift a date range' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('From').fill(monday);
  await dialog.getByLabel('To').fill(sunday);
  await dialog.getByLabel('Move by').fill('7');
  await dialog.getByLabel('Unit').selectOption('days');
  await dialog.getByRole('button', { name: 'Shift range' }).click();
  await expect(page.getByText(/posts? moved/)).toBeVisible();
  for (const p of posts) {
    const moved = (await api(request, 'GET', `/posts/${p.id}`)).data.scheduledAt!;
    expect(new Date(moved).getTime() - new Date(p.scheduledAt!).getTime()).toBe(7 * 24 * 3_600_000);
  }
});

test('a duplicate is found and resolved by keeping one', async ({ page, request }) => {
  const content = `Weekend brunch is back ${tag()}`;
  const linkedin = account('linkedin').id;
  const first = await api(request, 'POST', '/posts', { content, connectionIds: [linkedin], scheduledAt: `${utcDay(40)}T09:00:00.000Z` });
  const second = await api(request, 'POST', '/posts', {
    content: ` ${content.toUpperCase()} `,
    connectionIds: [linkedin],
    scheduledAt: `${utcDay(40)}T12:00:00.000Z`,
  });
  await signIn(page);
  await page.goto('/posts');
  await page.getByRole('link', { name: 'Find duplicates' }).click();
  const group = page.getByTestId('duplicate-group').filter({ hasText: content });
  await expect(group).toBeVisible();
  await group.getByRole('button', { name: 'Keep this one' }).first().click();
  await expect(page.getByText('Kept one, cancelled 1')).toBeVisible();
  await expect(group).toHaveCount(0);
  expect((await api(request, 'GET', `/posts/${first.data.id}`)).data.status).toBe('scheduled');
  expect((await api(request, 'GET', `/posts/${second.data.id}`)).data.status).toBe('cancelled');
});

test('an overdue post is alerted on the dashboard and in the list, with its reason and action', async ({ page, request }) => {
  const content = `Flash sale ${tag()}`;
  const created = await api(request, 'POST', '/posts', {
    content,
    connectionIds: [account('facebook').id],
    scheduledAt: `${utcDay(1)}T08:00:00.000Z`,
    requireApproval: true,
  });
  // Its time passed while it waited for a reviewer.
  await sql(`UPDATE "Post" SET "scheduledAt" = now() - interval '20 minutes' WHERE "id" = $1`, [created.data.id]);
  try {
    await signIn(page);
    const alert = page.getByTestId('post-alert').filter({ has: page.getByRole('link', { name: 'Review' }) });
    await expect(alert.first()).toContainText('Still waiting for approval after its scheduled time');
    await page.goto('/posts');
    await page.getByLabel('Alerts').selectOption('overdue');
    const row = page.getByTestId('post-row').filter({ hasText: content });
    await expect(row.getByTestId('post-alert')).toContainText('Overdue');
    const listed = await request.get('/public/v1/posts?alert=overdue', { headers: { authorization: `Bearer ${seed().apiKey}` } });
    expect(((await listed.json()).data as { id: string }[]).map((p) => p.id)).toContain(created.data.id);
  } finally {
    await api(request, 'DELETE', `/posts/${created.data.id}`);
  }
});

test('the workspace switcher moves every screen to a client workspace and back', async ({ page, request }) => {
  const name = `Corner Café ${tag()}`;
  await api(request, 'POST', '/workspaces', { name });
  await signIn(page);
  await page.getByRole('button', { name: /Switch workspace/ }).click();
  await page.getByRole('menuitem', { name }).click();
  await expect(page.getByTestId('workspace-name')).toHaveText(name);
  await expect(page.getByText('No accounts connected')).toBeVisible();
  await page.goto('/posts');
  await expect(page.getByText('No posts yet')).toBeVisible();
  await page.getByRole('button', { name: /Switch workspace/ }).click();
  await page.getByRole('menuitem', { name: /Demo Agency/ }).click();
  await expect(page.getByTestId('workspace-name')).toHaveText(seed().workspace.name);
  await expect(page.getByTestId('post-row').first()).toBeVisible();
});
