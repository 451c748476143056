// The posting queue in Chromium: a member gives an account daily slots, adds three posts to
// the queue from the composer, sees them take the next three slots, and a removed post's slot
// shows free again, on the Queue page and as a free slot in the calendar. Axe-clean, fits
// 375 px, pictured for the README.
import { expect, test } from './test';
import { check, VIEWPORTS } from './screen-check';
import { account, api, seed, signIn, tag } from './staff-fixtures';

test('slots for an account, three posts added to the queue, one removed frees its slot', async ({ page, request }) => {
  const t = tag();
  const linkedin = account('linkedin');
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Queue' }).click();
  await expect(page.getByRole('heading', { name: 'Queue' })).toBeVisible();

  await page.getByLabel('Slots of').selectOption({ label: 'Demo Agency (LinkedIn) only' });
  await page.getByLabel('Day').selectOption({ label: 'Every day' });
  await page.getByLabel('Time').fill('07:35');
  await page.getByRole('button', { name: 'Add slot' }).click();
  await expect(page.getByRole('list', { name: 'Slots' }).getByText('07:35')).toHaveCount(7);
  await page.getByRole('button', { name: 'Save slots' }).click();
  await expect(page.getByText('Queue slots saved')).toBeVisible();

  const ids: string[] = [];
  for (let i = 1; i <= 3; i++) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compose' }).click();
    await page.getByRole('checkbox', { name: /Demo Agency \(LinkedIn\)/ }).check();
    await page.getByLabel('Text', { exact: true }).fill(`Queued post ${i} ${t}: this week’s roast, brewed three ways.`);
    await page.getByRole('button', { name: 'Add to queue' }).click();
    await expect(page).toHaveURL(/\/posts\/[0-9a-f-]{36}$/);
    await expect(page.getByText(/Added to the queue for .*07:35/).first()).toBeVisible();
    ids.push(page.url().split('/').pop()!);
  }

  const posts = await Promise.all(ids.map(async (id) => (await api(request, 'GET', `/posts/${id}`)).data));
  const times = posts.map((p) => p.scheduledAt!);
  expect(new Set(times).size).toBe(3);
  expect(posts.every((p) => p.queued === true)).toBe(true);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Queue' }).click();
  const coming = page.getByRole('list', { name: 'Coming slots' });
  const linkedinRows = coming.locator('li li', { hasText: 'Demo Agency (LinkedIn)' });
  await expect(linkedinRows.filter({ hasText: 'Taken' })).toHaveCount(times.filter((at) => Date.parse(at) <= Date.now() + 7 * 86_400_000).length);

  // The second post is removed: its slot is free again, and the next one added takes it.
  await api(request, 'DELETE', `/posts/${ids[1]}`);
  await page.reload();
  await expect(linkedinRows.filter({ hasText: 'Taken' })).toHaveCount(times.filter((at, i) => i !== 1 && Date.parse(at) <= Date.now() + 7 * 86_400_000).length);
  const again = await api(request, 'POST', '/posts', { content: `Queued again ${t}`, connectionIds: [linkedin.id], queue: true });
  expect(again.data.scheduledAt).toBe(times[1]);
  await page.reload();

  for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
    await page.setViewportSize(size);
    await expect(coming).toBeVisible();
    await check(page, 'queue', viewport);
  }

  // The calendar shows the queue's free slots beside the posts.
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' }).click();
  await expect(page.getByTestId('calendar-title')).toContainText('Week of');
  // Next week, whatever today is: the three posts take at most three of its seven daily slots
  // (late in a week, this week's remaining slots may all be taken).
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('free-slot').filter({ hasText: '07:35' }).first()).toBeVisible();

  // Leave the seeded workspace as it was for the other journeys.
  for (const id of [ids[0], ids[2], again.data.id]) await api(request, 'DELETE', `/posts/${id}`);
  const res = await request.fetch('/public/v1/queue/slots', {
    method: 'PUT',
    headers: { authorization: `Bearer ${seed().apiKey}` },
    data: { connectionId: linkedin.id, slots: [] },
  });
  expect(res.status()).toBe(200);
});
