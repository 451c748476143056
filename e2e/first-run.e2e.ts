// A new agency's way in and out, on Herald servers of their own (the same build) over a
// database that starts empty: the first run, email verification from the local mailbox, a
// sandbox account, a scheduled post on the calendar; a second agency that sees nothing of the
// first; an invite-only Herald refusing sign-up; export, then deletion leaving no key or
// token that works.
import { type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { ownHerald } from './own-herald';
import { expect, test } from './test';
import { HEADERS } from '../server/shared/headers';

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

const herald = ownHerald('firstrun');
const { query, start: startHerald } = herald;

test.beforeAll(() => herald.create());
test.afterAll(() => herald.destroy());

/** The newest message to `email` in the local mailbox, and the first link in it. */
function mailTo(email: string): { subject: string; link: string } {
  const mails = herald.mailbox().filter((m) => m.to === email);
  expect(mails.length, `no mail to ${email}`).toBeGreaterThan(0);
  return { subject: mails[0]!.subject, link: /https?:\/\/\S+/.exec(mails[0]!.text)![0] };
}

async function signUp(page: Page, origin: string, who: { agency: string; name: string; email: string }) {
  await page.getByLabel('Agency name').fill(who.agency);
  await page.getByLabel('Your name').fill(who.name);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create the agency' }).click();
  // The rule in words, on the field, with what was typed kept.
  await expect(page.getByRole('alert').filter({ hasText: 'at least 10 characters' })).toBeVisible();
  await expect(page.getByLabel('Agency name')).toHaveValue(who.agency);
  await page.getByLabel('Password').fill('spring menu every morning');
  await page.getByLabel('Time zone').selectOption('Europe/Lisbon');
  await page.getByRole('button', { name: 'Create the agency' }).click();
  await expect(page).toHaveURL(`${origin}/`);
  await expect(page.getByTestId('workspace-name')).toHaveText(who.agency);
}

let origin: string;
const first = { agency: 'Atlantic Social', name: 'Ana Costa', email: 'ana@atlantic-social.example' };
const second = { agency: 'Northern Lights Media', name: 'Noor Berg', email: 'noor@northern-lights.example' };

test('on an empty Herald a person creates the agency, confirms the email, connects a sandbox account and schedules a post', async ({ page }) => {
  origin = (await startHerald(3181, { SIGNUP_MODE: 'open' })).origin;
  await page.goto(`${origin}/`);
  // Nobody to sign in yet: the first run.
  await expect(page).toHaveURL(`${origin}/signup`);
  await expect(page.getByRole('heading', { name: 'Welcome to Herald' })).toBeVisible();
  await signUp(page, origin, first);

  // The first hour: confirm the email first; keys wait for it.
  const steps = page.getByTestId('first-steps');
  await expect(steps).toContainText('Confirm your email (ana@atlantic-social.example)');
  await expect(steps.getByTestId('first-step-connectAccount')).toHaveAttribute('data-done', 'false');
  const mail = mailTo(first.email);
  expect(mail.subject).toBe('Confirm your email for Herald');
  await page.goto(mail.link);
  await expect(page.getByTestId('verify-result')).toContainText('ana@atlantic-social.example is confirmed');
  await page.getByRole('link', { name: 'Open Herald' }).click();
  await expect(page.getByTestId('first-step-verifyEmail')).toHaveAttribute('data-done', 'true');

  // A demo account to try with, from the empty Connections screen.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connections' }).click();
  await page.getByRole('button', { name: 'Add a demo LinkedIn account' }).click();
  await expect(page.getByRole('list', { name: 'Connected accounts' })).toContainText('Atlantic Social (demo)');

  // The first post, scheduled for tomorrow 10:00 in the agency's zone, on the calendar.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compose' }).click();
  await page.getByRole('checkbox', { name: /Atlantic Social \(demo\)/ }).check();
  await page.getByLabel('Text', { exact: true }).fill('Hello from Atlantic Social: our first post with Herald.');
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel(/^When/).fill(`${tomorrow}T10:00`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]{36}$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' }).click();
  await expect(page.getByTestId('calendar-title')).toBeVisible();
  // Weeks start on Monday: a Monday tomorrow is next week's.
  if (new Date(`${tomorrow}T12:00:00Z`).getUTCDay() === 1) await page.getByRole('button', { name: 'Next' }).click();
  const chip = page.getByTestId('calendar-post').filter({ hasText: 'Hello from Atlantic Social' });
  await expect(chip).toContainText('10:00');
  await page.goto(`${origin}/`);
  await expect(page.getByTestId('first-step-firstPost')).toHaveAttribute('data-done', 'true');
});

test('a second agency signs up and sees nothing of the first', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${origin}/signin`);
  await page.getByRole('link', { name: 'Create an agency' }).click();
  await expect(page.getByRole('heading', { name: 'Create your agency' })).toBeVisible();
  await signUp(page, origin, second);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Posts' }).click();
  await expect(page.getByText('No posts yet')).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connections' }).click();
  await expect(page.getByText('No accounts connected')).toBeVisible();
  await page.getByRole('button', { name: /Switch workspace/ }).click();
  await expect(page.getByRole('menu')).toContainText(second.agency);
  await expect(page.getByRole('menu')).not.toContainText('Atlantic Social');
  await page.keyboard.press('Escape');
  // Its own calls cannot reach the first agency's workspace either.
  const [atlantic] = await query<{ id: string }>(`SELECT id FROM "Workspace" WHERE name = 'Atlantic Social'`);
  const refused = await page.request.get(`${origin}/api/trpc/posts.list?input=${encodeURIComponent(JSON.stringify({}))}`, {
    headers: { [HEADERS.workspace]: atlantic!.id },
  });
  expect(refused.status()).toBeGreaterThanOrEqual(400);
});

test('sign-up names an email already in use, with the way to sign in and to reset the password', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${origin}/signup`);
  await page.getByLabel('Agency name').fill('Atlantic Again');
  await page.getByLabel('Your name').fill(first.name);
  await page.getByLabel('Email').fill(first.email);
  await page.getByLabel('Password').fill('another long passphrase here');
  await page.getByRole('button', { name: 'Create the agency' }).click();
  const problem = page.getByRole('alert').filter({ hasText: 'An account with this email exists already' });
  await expect(problem).toBeVisible();
  await expect(problem.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/signin/forgot');
  await problem.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${origin}/signin`);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('an invite-only Herald refuses sign-up with a page that says why', async ({ page }) => {
  const server = await startHerald(3182, { SIGNUP_MODE: 'invite' });
  const invited = server.origin;
  await page.goto(`${invited}/signup`);
  await expect(page.getByRole('heading', { name: 'Sign-up is by invitation' })).toBeVisible();
  await expect(page.getByText('This Herald is invite-only')).toBeVisible();
  await expect(page.getByLabel('Agency name')).toHaveCount(0);
  await page.goto(`${invited}/signup?invite=not-a-real-invitation`);
  await expect(page.getByText('used already or has expired')).toBeVisible();
  server.stop();
});

test('an owner exports the agency, then deletes it: no key and no token works afterwards', async ({ page }) => {
  await page.goto(`${origin}/signin`);
  await page.getByLabel('Email').fill(first.email);
  await page.getByLabel('Password').fill('spring menu every morning');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('workspace-name')).toHaveText(first.agency);

  // A key for an integration, working.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel('Key name').fill('Zapier');
  await page.getByRole('button', { name: 'Mint key' }).click();
  const secret = await page
    .getByRole('region', { name: /Secret of/ })
    .getByRole('textbox')
    .inputValue();
  const bearer = { authorization: `Bearer ${secret}` };
  const before = await page.request.get(`${origin}/public/v1/connections`, { headers: bearer });
  expect(before.status(), await before.text()).toBe(200);
  // A connected account holding tokens, as a live one would.
  await query(`UPDATE "Connection" SET "accessToken" = 'sealed-access', "refreshToken" = 'sealed-refresh'`);

  await page.getByRole('link', { name: 'Settings' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export the agency’s data' }).click();
  const file = await (await download).path();
  const exported = readFileSync(file, 'utf8');
  expect(JSON.parse(exported)).toMatchObject({ format: 'herald-export/1', agency: { name: first.agency } });
  expect(exported).toContain('Hello from Atlantic Social');
  expect(exported).not.toContain('sealed-access');
  expect(exported).not.toContain(secret);

  await page.getByRole('button', { name: 'Delete the agency…' }).click();
  const dialog = page.getByRole('dialog', { name: `Delete ${first.agency}?` });
  await expect(dialog.getByRole('button', { name: 'Delete the agency' })).toBeDisabled();
  await dialog.getByLabel(/Type the agency’s name/).fill(first.agency);
  await dialog.getByRole('button', { name: 'Delete the agency' }).click();
  // A page of its own: what closed, when the rest goes, and the email free to sign up again.
  await expect(page).toHaveURL(/\/agency-deleted\?/);
  await expect(page.getByRole('heading', { name: 'Your agency is deleted' })).toBeVisible();
  await expect(page.getByTestId('email-next')).toContainText('Your email is free again');

  expect((await page.request.get(`${origin}/public/v1/connections`, { headers: bearer })).status()).toBe(401);
  expect(
    await query(
      `SELECT 1 FROM "Connection" c JOIN "Workspace" w ON w.id = c."workspaceId" WHERE w.name = $1 AND (c."accessToken" IS NOT NULL OR c."refreshToken" IS NOT NULL)`,
      [first.agency],
    ),
  ).toEqual([]);
  expect(
    await query(`SELECT 1 FROM "ApiKey" k JOIN "Workspace" w ON w.id = k."workspaceId" WHERE w.name = $1 AND k."revokedAt" IS NULL`, [first.agency]),
  ).toEqual([]);
  // Signed out, and signing in again leads nowhere.
  await page.goto(`${origin}/`);
  await expect(page).toHaveURL(`${origin}/signin`);
});
