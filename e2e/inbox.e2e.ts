// The inbox in Chromium: a comment arrives under a demo post, a member answers it from the
// inbox with the keyboard (r, then Ctrl+Enter) and the reply shows its permalink; a reviewer
// reads but cannot reply; with "Replies need approval" on, a member's reply waits in the
// Approvals queue and goes out when the owner approves it. Each screen passes axe, fits 375 px
// and is pictured for the README.
import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { hashPassword } from '../server/auth/password';
import { check, VIEWPORTS } from './screen-check';
import { account, api, seed, signIn, sql, tag } from './staff-fixtures';
import { expect, test } from './test';

const PASSWORD = 'a long and unusual passphrase';
const QUESTION = 'Do you ship to Canada? Would love to order a bag for my sister.';

async function newMember(role: 'member' | 'reviewer', name: string) {
  const email = `${role}-${randomBytes(4).toString('hex')}@demo-agency.example`;
  const user = await sql(`INSERT INTO "User" (id, email, name, "passwordHash", "updatedAt") VALUES (gen_random_uuid(), $1, $2, $3, now()) RETURNING id`, [
    email,
    name,
    await hashPassword(PASSWORD),
  ]);
  await sql(`INSERT INTO "Membership" (id, "userId", "workspaceId", role) VALUES (gen_random_uuid(), $1, $2, $3)`, [
    user.rows[0].id,
    seed().workspace.id,
    role,
  ]);
  return email;
}

async function signInAs(page: Page, email: string) {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

/**
 * A post published to the demo Facebook page ten minutes ago: the demo audience's first
 * comment (a question) arrives seven minutes after publishing.
 */
async function publishedDemoPost(request: APIRequestContext): Promise<string> {
  const created = await api(request, 'POST', '/posts', { content: `Our winter blend is back ${tag()}`, connectionIds: [account('facebook').id] });
  await api(request, 'POST', `/posts/${created.data.id}/publish`, {});
  await expect.poll(async () => (await api(request, 'GET', `/posts/${created.data.id}`)).data.status, { timeout: 20_000 }).toBe('published');
  await sql(`UPDATE "PostTarget" SET "publishedAt" = now() - interval '10 minutes' WHERE "postId" = $1`, [created.data.id]);
  return created.data.id;
}

/** Opens the inbox on one post and checks for comments until the demo question is there. */
async function openInboxOn(page: Page, postId: string) {
  await page.goto(`/inbox?postId=${postId}`);
  await expect(page.getByRole('heading', { name: 'Inbox' })).toBeVisible();
  await page.getByRole('button', { name: 'Check now' }).click();
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('inbox-item').filter({ hasText: QUESTION })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

test('a comment arrives under a demo post and a member answers it from the inbox with r; the reply shows its permalink', async ({ page, request }) => {
  const postId = await publishedDemoPost(request);
  await signInAs(page, await newMember('member', 'Mia Member'));
  // The navigation counts unread comments.
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Inbox/ })).toBeVisible();
  await openInboxOn(page, postId);

  const conversation = page.getByTestId('conversation');
  await expect(conversation).toContainText(QUESTION);
  await expect(conversation).toContainText('Our winter blend is back');
  // Facebook offers hide, delete and like: each is a button.
  await expect(conversation.getByRole('button', { name: 'Hide' })).toBeVisible();
  await expect(conversation.getByRole('button', { name: 'Like' })).toBeVisible();

  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('r');
  await expect(page.getByLabel('Reply', { exact: true })).toBeFocused();
  await page.keyboard.type('Yes! We ship to Canada, free over $40.');
  await expect(page.locator('#inbox-reply-count')).toContainText('38 /');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText('Reply sent')).toBeVisible();
  const mine = conversation.getByTestId('thread-entry').filter({ hasText: 'Yes! We ship to Canada' });
  await expect(mine).toContainText('(you)');
  await expect(mine.getByTestId('entry-permalink')).toHaveAttribute('href', /\/demo-post\/facebook\//);
  // Answered, it is done: it leaves the open list, and the status filter shows it again.
  await expect(page.getByTestId('inbox-item').filter({ hasText: QUESTION })).toHaveCount(0);
  await page.getByLabel('Status').selectOption('all');
  await expect(page.getByTestId('inbox-item').filter({ hasText: QUESTION })).toContainText('answered');
  await expect(page.getByTestId('inbox-item').filter({ hasText: QUESTION })).toContainText('done');
  // The toasts gone, the screen as a person sees it.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
    await page.setViewportSize(size);
    // On a phone the open conversation takes the screen, with a way back to the list.
    if (viewport === 'mobile') await expect(page.getByRole('button', { name: 'All items' })).toBeVisible();
    await expect(conversation).toBeVisible();
    await check(page, 'inbox', viewport);
  }
});

test('a reviewer reads the inbox but cannot reply', async ({ page }) => {
  await signInAs(page, await newMember('reviewer', 'Rita Reviewer'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Inbox/ }).click();
  await page.getByLabel('Status').selectOption('all');
  await page.getByTestId('inbox-item').first().click();
  await expect(page.getByTestId('conversation')).toContainText('Reviewers read the inbox; a member or owner answers.');
  await expect(page.getByRole('button', { name: 'Send reply' })).toHaveCount(0);
  await page.keyboard.press('r');
  await expect(page.getByLabel('Reply', { exact: true })).toHaveCount(0);
});

test('with replies needing approval, a member’s reply waits in the queue and goes out when the owner approves it', async ({ page, browser, request }) => {
  const postId = await publishedDemoPost(request);
  await sql(`UPDATE "Workspace" SET "requireReplyApproval" = true WHERE id = $1`, [seed().workspace.id]);
  try {
    await signInAs(page, await newMember('member', 'Max Member'));
    await openInboxOn(page, postId);
    await page.getByLabel('Reply', { exact: true }).fill('We open at 9 on Sundays.');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await expect(page.getByText('Your reply waits for approval')).toBeVisible();
    const waiting = page.getByTestId('thread-entry').filter({ hasText: 'We open at 9 on Sundays.' });
    await expect(waiting).toContainText('waiting for approval');

    const owner = await (await browser.newContext()).newPage();
    await signIn(owner);
    await owner
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /Approvals/ })
      .click();
    const pending = owner.getByTestId('pending-reply').filter({ hasText: 'We open at 9 on Sundays.' });
    await expect(pending).toContainText(QUESTION);
    await expect(pending).toContainText('Max Member');
    for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
      await owner.setViewportSize(size);
      await expect(pending).toBeVisible();
      await check(owner, 'approvals-replies', viewport);
    }
    await owner.setViewportSize(VIEWPORTS.desktop);
    await pending.getByRole('button', { name: 'Approve and send' }).click();
    await expect(owner.getByText('Approved: the reply went out')).toBeVisible();
    await expect(pending).toHaveCount(0);

    // Answered, the comment is done: the status filter shows it again.
    await page.reload();
    await page.getByLabel('Status').selectOption('all');
    await page.getByTestId('inbox-item').filter({ hasText: QUESTION }).click();
    await expect(waiting).not.toContainText('waiting for approval');
    await expect(waiting.getByTestId('entry-permalink')).toHaveAttribute('href', /\/demo-post\/facebook\//);
    await expect(waiting).toContainText('Written by Max Member');
  } finally {
    await sql(`UPDATE "Workspace" SET "requireReplyApproval" = false WHERE id = $1`, [seed().workspace.id]);
  }
});
