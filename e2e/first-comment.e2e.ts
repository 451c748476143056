// A first comment as staff write and follow it: the composer offers it for the networks that
// let Herald comment, each account's delivery shows the comment's own outcome, and one that
// did not go out is sent again on its own, without the post.
import { expect, test } from './test';
import { account, api, signIn, sql, tag } from './staff-fixtures';
import { check, VIEWPORTS } from './screen-check';

test('the composer takes a first comment, the delivery log shows it posted, and a refused one is sent again alone', async ({ page }) => {
  const t = tag();
  await signIn(page);
  await page.goto('/compose');
  // No network chosen yet: nothing to comment on.
  await expect(page.getByLabel('First comment (optional)')).toHaveCount(0);
  await page.getByRole('checkbox', { name: /Demo Agency \(LinkedIn\)/ }).check();
  await page.getByRole('checkbox', { name: /#client-updates \(Slack\)/ }).check();
  await page.getByLabel('Text', { exact: true }).fill(`Our autumn menu is here ${t}`);
  const comment = page.getByLabel('First comment (optional)');
  await expect(page.getByText('Posted under the post on LinkedIn; the other networks take no comment from Herald.')).toBeVisible();
  // Over LinkedIn's comment limit: said before saving, next to the other problems.
  await comment.fill('Menu! '.repeat(220));
  await expect(page.getByTestId('limit-error').filter({ hasText: 'A first comment on LinkedIn allows 1250 characters' })).toBeVisible();
  await comment.fill('Full menu: https://acme-coffee.example/menu');
  await expect(page.getByTestId('limit-error')).toHaveCount(0);
  for (const viewport of ['desktop', 'mobile'] as const) {
    await page.setViewportSize(VIEWPORTS[viewport]);
    await check(page, 'compose-first-comment', viewport);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.waitForURL(/\/posts\/[0-9a-f-]{36}$/);
  const postId = page.url().split('/').at(-1)!;

  await expect(page.getByTestId('post-first-comment')).toContainText('Full menu: https://acme-coffee.example/menu');
  await page.getByRole('button', { name: 'Publish now' }).click();
  const linkedin = page.getByTestId('target-row').filter({ hasText: 'LinkedIn' });
  await expect(linkedin.getByTestId('first-comment')).toContainText('First comment posted');
  await expect(linkedin.getByTestId('first-comment').getByRole('link', { name: /see it on the demo post/ })).toHaveAttribute('href', /\/demo-post\//);
  const slack = page.getByTestId('target-row').filter({ hasText: 'Slack' });
  await expect(slack.getByTestId('first-comment')).toHaveCount(0);
  // Slack answers a post with no address: published all the same, not "nothing sent".
  await expect(slack.getByText('Nothing sent yet.')).toHaveCount(0);

  // The network refused the comment (as a real one can after the post landed): the post stays
  // published, and the comment alone goes again.
  const linkedinId = account('linkedin').id;
  await sql(
    `UPDATE "PostTarget" SET "firstCommentStatus" = 'failed', "firstCommentId" = NULL, "firstCommentPermalink" = NULL,
       "firstCommentError" = 'Comment text is too long' WHERE "postId" = $1 AND "connectionId" = $2`,
    [postId, linkedinId],
  );
  await page.reload();
  await expect(linkedin.getByTestId('first-comment')).toContainText('The first comment did not go out; the post itself is on LinkedIn.');
  await expect(linkedin.getByLabel('LinkedIn’s answer to the first comment')).toHaveText('Comment text is too long');
  for (const viewport of ['desktop', 'mobile'] as const) {
    await page.setViewportSize(VIEWPORTS[viewport]);
    await check(page, 'post-first-comment', viewport);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  await linkedin.getByRole('button', { name: /Send the first comment again/ }).click();
  await expect(linkedin.getByTestId('first-comment')).toContainText('First comment posted');

  const { data } = (await api(page.request, 'GET', `/posts/${postId}`)) as unknown as {
    data: { status: string; targets: { connectionId: string; attempts: number; firstComment: { status: string } | null }[] };
  };
  expect(data.status).toBe('published');
  const target = data.targets.find((x) => x.connectionId === linkedinId)!;
  // The post went once; the comment twice.
  expect(target.attempts).toBe(1);
  expect(target.firstComment?.status).toBe('posted');
});
