// The assistant and workflow screens: an assistant stages a scheduled post through the tool
// endpoint, a member reads it in plain words on the Assistant screen and confirms it, then
// opens the post it made; workflows run from the dashboard and a post's page and show their
// outcome. Both screens pass axe and fit 375 px, and are pictured for the README.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { check, VIEWPORTS } from './screen-check';
import { expect, test } from './test';
import { account, api, seed, signIn, tag, utcDay } from './staff-fixtures';

async function assistantClient(baseURL: string) {
  const client = new Client({ name: 'e2e-desk-assistant', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/public/v1/mcp', baseURL), { requestInit: { headers: { Authorization: `Bearer ${seed().apiKey}` } } }),
  );
  return client;
}

test('an assistant stages a scheduled post; a member confirms it on the Assistant screen and opens the post', async ({ page, baseURL }) => {
  const t = tag();
  const linkedin = account('linkedin');
  const client = await assistantClient(baseURL!);
  const content = `Autumn menu is here ${t}`;
  const scheduledAt = `${utcDay(2)}T09:30:00.000Z`;
  const created = await client.callTool({ name: 'posts_create', arguments: { content, connectionIds: [linkedin.id], scheduledAt } });
  const staged = (created.structuredContent as { staged: { actionId: string; title: string } }).staged;
  await client.close();

  await signIn(page);
  await expect(page.getByTestId('count-assistant')).not.toHaveText('0');
  await page.getByRole('link', { name: /^Assistant/ }).click();
  await expect(page.getByRole('heading', { name: 'Assistant', level: 1 })).toBeVisible();
  const card = page.getByTestId('proposal').filter({ hasText: content });
  await expect(card).toBeVisible();
  // The arguments in plain words: the account by name, the time in the workspace's zone.
  await expect(card.getByText(linkedin.displayName, { exact: true })).toBeVisible();
  await expect(card.getByText(/09:30 UTC/).first()).toBeVisible();
  // …and what it would do: the post as the account will show it, and when.
  const preview = card.getByTestId('proposal-preview');
  await expect(preview.getByRole('list', { name: 'What each account will show' })).toContainText(`${linkedin.displayName} · LinkedIn${content}`);
  await expect(preview).toContainText(/When: .* 09:30 UTC/);
  await expect(card.getByText(/Staged by the key “/)).toBeVisible();
  await card.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('button', { name: 'All' }).click();
  const done = page.getByTestId('proposal').filter({ hasText: content });
  await expect(done.getByText('Done')).toBeVisible({ timeout: 20_000 });
  await done.getByRole('link', { name: 'Open the post' }).click();
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Post', exact: true, level: 1 })).toBeVisible();
  await expect(page.getByText(content)).toBeVisible();
  await expect(page.getByText('scheduled', { exact: true }).first()).toBeVisible();
  expect(staged.title).toMatch(/Schedule a post/);
});

test('a member declines a staged action with a reason the assistant can read', async ({ page, baseURL }) => {
  const t = tag();
  const client = await assistantClient(baseURL!);
  const draft = await client.callTool({ name: 'posts_create', arguments: { content: `Flash sale ${t}`, connectionIds: [account('facebook').id] } });
  const postId = (draft.structuredContent as { data: { id: string } }).data.id;
  const publish = await client.callTool({ name: 'posts_publish', arguments: { id: postId } });
  const actionId = (publish.structuredContent as { staged: { actionId: string } }).staged.actionId;

  await signIn(page);
  // The confirmation link says what a publish takes out of the member's hands.
  await page.goto(`/proposals/${actionId}`);
  await expect(page.getByTestId('proposal-consequence')).toContainText('Publishes now to 1 account, in public');
  await expect(page.getByTestId('proposal-preview')).toContainText(`Flash sale ${t}`);
  await page.goto('/assistant');
  const card = page.getByTestId('proposal').filter({ hasText: postId });
  await card.getByRole('button', { name: 'Decline' }).click();
  const dialog = page.getByRole('dialog', { name: 'Decline this action?' });
  await dialog.getByLabel(/Reason/).fill('Not before the price check');
  await dialog.getByRole('button', { name: 'Decline' }).click();
  await expect(card).toHaveCount(0);
  const read = await client.callTool({ name: 'proposals_get', arguments: { id: actionId } });
  expect((read.structuredContent as { data: unknown }).data).toMatchObject({ status: 'declined', declineReason: 'Not before the price check' });
  await client.close();
});

test('workflows run from the dashboard and from a published post, and show what they did', async ({ page, request }) => {
  const t = tag();
  const post = await api(request, 'POST', '/posts', { content: `We are hiring baristas ${t}`, connectionIds: [account('linkedin').id] });
  await api(request, 'POST', `/posts/${post.data.id}/publish`);

  await signIn(page);
  await page.getByRole('button', { name: 'Weekly digest' }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  const digest = page.getByTestId('workflow-run').filter({ hasText: 'Weekly digest' }).first();
  await expect(digest.getByText('completed')).toBeVisible({ timeout: 20_000 });
  await expect(digest.getByText(/posts?, \d+ published, \d+ failed deliveries/)).toBeVisible();

  await page.goto(`/posts/${post.data.id}`);
  await expect(page.getByText('published', { exact: true }).first()).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Repurpose for other accounts' }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  const repurpose = page.getByTestId('workflow-run').filter({ hasText: 'Repurpose a post' }).first();
  await expect(repurpose.getByText('completed')).toBeVisible({ timeout: 20_000 });
  await expect(repurpose.getByText(/\d+ drafts? from/)).toBeVisible();
  await repurpose.getByRole('link', { name: /draft/ }).first().click();
  await expect(page.getByRole('heading', { name: 'Post' })).toBeVisible();
  await expect(page.getByText(`We are hiring baristas ${t}`)).toBeVisible();
});

test('the assistant and workflow screens are accessible, fit 375 px, and are pictured for the README', async ({ page, baseURL }) => {
  const client = await assistantClient(baseURL!);
  await client.callTool({
    name: 'posts_create',
    arguments: { content: 'Reminder: the shop closes at 4pm on Friday', connectionIds: [account('linkedin').id], scheduledAt: `${utcDay(3)}T15:00:00.000Z` },
  });
  await client.close();
  await signIn(page);
  for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
    await page.setViewportSize(size);
    await page.goto('/assistant');
    await expect(page.getByTestId('proposal').first()).toBeVisible();
    await expect(page.getByTestId('setup-snippet')).toBeVisible();
    await check(page, 'assistant', viewport);
    await page.goto('/workflows');
    await expect(page.getByRole('heading', { name: 'Workflows', level: 1 })).toBeVisible();
    await check(page, 'workflows', viewport);
  }
});
