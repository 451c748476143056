// Reviews and direct messages in Chromium. A one-star review arrives from the demo Google
// location; an assistant connected over the tool endpoint (the SDK's client, toolset inbox)
// finds it and drafts an answer; a member sees the draft with who drafted it, edits it and sends
// it; the review shows its answer and the analytics page counts it in the response times by
// kind. The demo Instagram account's conversations: one older than Meta's 24-hour window says
// why it cannot be answered, an open one says until when it can. Each screen passes axe, fits
// 375 px and is pictured for the README.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from '@playwright/test';
import { check, VIEWPORTS } from './screen-check';
import { seed, signIn } from './staff-fixtures';
import { expect, test } from './test';

const ONE_STAR = 'Waited forty minutes for a cold flat white. Not coming back.';
const DRAFT = 'Sorry Tom, that is not us at our best. Your next flat white is on us.';

/** The inbox narrowed to one kind and network, checking every account until `text` is listed. */
async function waitFor(page: Page, kind: 'Reviews' | 'Messages', network: string, text: string) {
  await page.goto('/inbox');
  await expect(page.getByRole('heading', { name: 'Inbox' })).toBeVisible();
  await expect(async () => {
    await page.reload();
    await page.getByRole('group', { name: 'Kind' }).getByRole('button', { name: kind }).click();
    await page.getByLabel('Network').selectOption(network);
    await page.getByRole('button', { name: 'Check now' }).click();
    await expect(page.getByTestId('inbox-item').filter({ hasText: text }).first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 45_000 });
}

const viewports = Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][];

test('a one-star review arrives, an assistant drafts the answer, a member edits and sends it, and analytics counts it', async ({ page, baseURL }) => {
  await signIn(page);
  await waitFor(page, 'Reviews', 'google_business', ONE_STAR);
  const row = page.getByTestId('inbox-item').filter({ hasText: ONE_STAR });
  await expect(row.getByTestId('review-stars')).toHaveAttribute('aria-label', '1 of 5 stars');

  // An assistant, with the inbox toolset, finds the review and drafts an answer: stored, not sent.
  const client = new Client({ name: 'e2e-inbox-assistant', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/public/v1/mcp?toolsets=inbox', baseURL), {
      requestInit: { headers: { Authorization: `Bearer ${seed().apiKey}` } },
    }),
  );
  const listed = await client.callTool({ name: 'inbox_list', arguments: { kind: 'review', rating: 1, answered: false } });
  const items = (listed.structuredContent as { data: { id: string; text: string; author: { name: string } }[] }).data;
  const review = items.find((i) => i.text === ONE_STAR)!;
  expect(review.author.name).toBe('Tom Okafor');
  const drafted = await client.callTool({ name: 'inbox_draft_reply', arguments: { id: review.id, text: DRAFT } });
  expect(drafted.isError).toBeFalsy();
  expect((drafted.structuredContent as { data: { status: string; authoredBy: { assistant: boolean } } }).data).toMatchObject({
    status: 'pending',
    authoredBy: { assistant: true },
  });
  await client.close();

  // The member sees the draft with who drafted it.
  await page.reload();
  await page.getByRole('group', { name: 'Kind' }).getByRole('button', { name: 'Reviews' }).click();
  await page.getByLabel('Network').selectOption('google_business');
  await page.getByTestId('inbox-item').filter({ hasText: ONE_STAR }).click();
  const conversation = page.getByTestId('conversation');
  const draft = conversation.getByTestId('inbox-draft');
  await expect(draft).toContainText(DRAFT);
  await expect(draft).toContainText('(assistant)');
  await expect(conversation.getByLabel('Answer the review')).toBeVisible();
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  for (const [viewport, size] of viewports) {
    await page.setViewportSize(size);
    await expect(draft).toBeVisible();
    await check(page, 'inbox-reviews', viewport);
  }
  await page.setViewportSize(VIEWPORTS.desktop);

  // Edited and sent through the one reply path.
  await draft.getByRole('button', { name: 'Use this draft' }).click();
  const box = conversation.getByLabel('Answer the review');
  await expect(box).toHaveValue(DRAFT);
  await box.fill(`${DRAFT} Ask for Sam at the counter.`);
  await conversation.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.getByText('Reply sent')).toBeVisible();
  const answer = conversation.getByTestId('thread-entry').filter({ hasText: 'Ask for Sam at the counter.' });
  await expect(answer).toContainText('(you)');
  // One answer per review: the box gives way to changing it or taking it down.
  await expect(conversation.getByRole('button', { name: 'Change the answer' })).toBeVisible();
  await expect(conversation.getByLabel('Answer the review')).toHaveCount(0);

  // Analytics: the reviews' response times.
  await page.goto('/analytics');
  const card = page.getByTestId('response-times');
  await expect(card).toBeVisible();
  const reviews = card.getByRole('table', { name: 'Response times by kind' }).getByRole('row').filter({ hasText: 'Reviews' });
  await expect(reviews).toContainText(/\d+ of \d+/);
  await expect(reviews).not.toContainText(/^Reviews\s*n\/a/);
});

test('a conversation past Meta’s 24-hour window says why it cannot be answered; an open one says until when', async ({ page }) => {
  await signIn(page);
  await waitFor(page, 'Messages', 'instagram', 'Do you sell gift cards?');
  await page.getByTestId('inbox-item').filter({ hasText: 'Do you sell gift cards?' }).first().click();
  const conversation = page.getByTestId('conversation');
  await expect(conversation.getByTestId('reply-window-closed')).toContainText('24 hours');
  await expect(conversation.getByRole('button', { name: 'Send reply' })).toHaveCount(0);

  await page.getByTestId('inbox-item').filter({ hasText: 'Also, is there parking nearby?' }).first().click();
  await expect(conversation.getByTestId('reply-window')).toContainText('24 hours after the person’s last message');
  await expect(conversation.getByTestId('thread-entry').filter({ hasText: 'Can I book a table for six' })).toBeVisible();
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  for (const [viewport, size] of viewports) {
    await page.setViewportSize(size);
    await expect(conversation).toBeVisible();
    await check(page, 'inbox-messages', viewport);
  }
});
