// Every main screen of the staff app, at 1280 and 375 px: no serious accessibility violation
// (axe), nothing wider than the screen, and the README's screenshots (docs/screenshots/).
import { expect, test } from './test';
import { check, VIEWPORTS } from './screen-check';
import { account, api, signIn, tag, utcDay } from './staff-fixtures';

test('the main screens are accessible, fit 375 px, and are pictured for the README', async ({ page, request }) => {
  test.setTimeout(120_000);
  const t = tag();
  const linkedin = account('linkedin').id;
  const published = await api(request, 'POST', '/posts', {
    content: `Thank you for 10,000 followers! ${t}`,
    connectionIds: [linkedin, account('twitter').id, account('linkedin', 'rejects_posts').id],
  });
  await api(request, 'POST', `/posts/${published.data.id}/publish`);
  await api(request, 'POST', '/posts', {
    content: `New opening hours from Monday: 7am to 7pm ${t}`,
    connectionIds: [linkedin, account('facebook').id],
    scheduledAt: `${utcDay(1)}T16:00:00.000Z`,
    requireApproval: true,
  });
  for (const day of [0, 1, 3]) {
    await api(request, 'POST', '/posts', {
      content: `Tip of the day ${day} ${t}`,
      connectionIds: [account('threads').id],
      scheduledAt: `${utcDay(day)}T23:30:00.000Z`,
    });
  }

  await signIn(page);
  const screens: [string, string, () => Promise<void>][] = [
    ['dashboard', '/', () => expect(page.getByRole('heading', { name: 'Needs attention' })).toBeVisible()],
    ['compose', '/compose', () => expect(page.getByRole('checkbox', { name: /Demo Agency \(LinkedIn\)/ })).toBeVisible()],
    ['posts', '/posts', () => expect(page.getByTestId('post-row').first()).toBeVisible()],
    ['post', `/posts/${published.data.id}`, () => expect(page.getByTestId('target-row').first()).toBeVisible()],
    ['calendar', '/calendar', () => expect(page.getByTestId('calendar-post').first()).toBeVisible()],
    ['approvals', '/approvals', () => expect(page.getByTestId('approval-item').first()).toBeVisible()],
    ['notifications', '/notifications', () => expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible()],
    ['duplicates', '/posts/duplicates', () => expect(page.getByRole('heading', { name: 'Duplicates' })).toBeVisible()],
    ['settings', '/settings', () => expect(page.getByLabel('Workspace time zone')).toBeVisible()],
  ];
  for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
    await page.setViewportSize(size);
    for (const [name, url, ready] of screens) {
      await page.goto(url);
      await ready();
      await check(page, name, viewport);
    }
  }
});
