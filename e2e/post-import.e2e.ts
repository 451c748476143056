// Importing posts in Chromium: a member uploads a CSV with two bad rows, sees both problems at
// their rows and columns (and no way to import), fixes the file, imports it, finds the posts
// in the list and exports them with the list's filter; the same file again, or the export,
// adds nothing. Axe-clean, fits 375 px, pictured for the README.
import { readFileSync } from 'node:fs';
import { expect, test } from './test';
import { check, VIEWPORTS } from './screen-check';
import { account, signIn, tag } from './staff-fixtures';

const csv = (...lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n`);

test('a CSV with two bad rows is refused with both problems shown, then fixed and imported', async ({ page }) => {
  const t = tag();
  const linkedin = account('linkedin');
  const header = 'content,accounts,scheduledAt';
  const good = [`Autumn menu ${t}: pumpkin spice is back,${linkedin.id},2030-03-04 09:00`, `"Draft ${t}, with a comma",${linkedin.id},`];
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Posts' }).click();
  await page.getByRole('link', { name: 'Import' }).click();
  await expect(page.getByRole('heading', { name: 'Import posts' })).toBeVisible();

  const upload = (name: string, buffer: Buffer) => page.getByLabel('File (CSV or JSON)').setInputFiles({ name, mimeType: 'text/csv', buffer });
  await upload('posts.csv', csv(header, ...good, `Unknown account ${t},nobody-here-${t},`, `Too late ${t},${linkedin.id},2020-01-01 09:00`));

  const rows = page.getByRole('list', { name: 'Rows of the file' });
  await expect(page.getByText('2 ready · 2 with problems · 0 already imported')).toBeVisible();
  const row3 = rows.getByRole('listitem', { name: 'Row 3, 1 problem' });
  const row4 = rows.getByRole('listitem', { name: 'Row 4, 1 problem' });
  await expect(row3.getByText(`Accounts: No account “nobody-here-${t}” in this workspace`)).toBeVisible();
  await expect(row4.getByText('Time: That time has already passed. Pick a time from now on.')).toBeVisible();
  await expect(row3).toBeFocused();
  await expect(page.getByRole('button', { name: /^Import \d+ posts?$/ })).toHaveCount(0);

  for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
    await page.setViewportSize(size);
    await expect(rows).toBeVisible();
    await check(page, 'post-import', viewport);
  }
  await page.setViewportSize(VIEWPORTS.desktop);

  const fixed = csv(header, ...good, `Known account ${t},${linkedin.id},`, `On time ${t},${linkedin.id},2030-03-05 09:00`);
  await upload('posts-fixed.csv', fixed);
  await expect(page.getByText('4 ready · 0 with problems · 0 already imported')).toBeVisible();
  await page.getByRole('button', { name: 'Import 4 posts' }).click();
  await expect(page.getByRole('status', { name: 'Import result' })).toContainText('Imported 4 posts.');

  await page.getByRole('link', { name: 'See them in Posts' }).click();
  await page.getByLabel('Search').fill(t);
  await expect(page.getByText(`Autumn menu ${t}: pumpkin spice is back`)).toBeVisible();
  await expect(page.getByText(`Draft ${t}, with a comma`)).toBeVisible();

  // Export CSV takes the list's filters: the four posts, and the file reads back as already imported.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const exported = readFileSync((await download.path())!, 'utf8');
  expect(exported.trim().split('\r\n')).toHaveLength(5);
  expect(exported).toContain(`"Draft ${t}, with a comma"`);

  // The same file again: nothing new.
  await page.goto('/posts/import');
  await upload('posts-fixed.csv', fixed);
  await expect(page.getByText('0 ready · 0 with problems · 4 already imported')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Import \d+ posts?$/ })).toHaveCount(0);
  await upload('exported.csv', Buffer.from(exported));
  await expect(page.getByText('0 ready · 0 with problems · 4 already imported')).toBeVisible();
});
