// The team and the settings in Chromium: the owner invites someone by email from Security; in
// a second browser (no account, no session) the invitation link is opened, a password set,
// and the new reviewer lands in the agency; the link then says it was used. The owner edits
// a client's settings (name, approval by default, brand) and reads each change in the
// history; the brand is what the client's next connect link shows. Axe-clean, fits 375 px,
// pictured for the README.
import { expect, test } from './test';
import { WORKSPACE_COOKIE } from '../app/(staff)/_lib/workspace-cookie';
import { createClient } from './client-links-fixtures';
import { check, VIEWPORTS } from './screen-check';
import { seed, signIn, sql, tag } from './staff-fixtures';

test('an invitation accepted in a second browser by setting a password; the link works once', async ({ page, browser }) => {
  const t = tag();
  const email = `reviewer-${t}@team.example`;
  await signIn(page);
  await page.goto('/security');
  // Typed once the page is interactive (what is typed before hydration is reset): the button
  // turns on only when the page holds the address.
  const send = page.getByRole('button', { name: 'Send invitation' });
  await expect(async () => {
    await page.getByLabel('Invite by email').fill(email);
    await expect(send).toBeEnabled({ timeout: 1000 });
  }).toPass();
  await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption('reviewer');
  await send.click();
  const link = (await page.getByTestId('invitation-link').textContent())!.trim();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole('list', { name: 'Invitations' }).getByText(email)).toBeVisible();

  // Someone else's browser: no session, nothing shared with the owner's.
  const other = await browser.newContext({ viewport: VIEWPORTS.desktop });
  const invitee = await other.newPage();
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: `Join ${seed().workspace.name} on Herald` })).toBeVisible();
  await expect(invitee.getByText(email, { exact: true })).toBeVisible();
  for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
    await invitee.setViewportSize(size);
    await check(invitee, 'invite', viewport);
  }
  await invitee.setViewportSize(VIEWPORTS.desktop);
  await invitee.getByLabel('Your name').fill('Rae Reviewer');
  await invitee.getByLabel('Password').fill('short');
  await invitee.getByRole('button', { name: 'Join the team' }).click();
  await expect(invitee.getByRole('alert').filter({ hasText: 'at least 10 characters' })).toBeVisible();
  await invitee.getByLabel('Password').fill('four words make a passphrase');
  await invitee.getByRole('button', { name: 'Join the team' }).click();
  await expect(invitee.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(invitee.getByText('Role: reviewer')).toBeAttached();

  // The link is spent; the owner sees the new member instead of the invitation.
  const again = await browser.newContext();
  const late = await again.newPage();
  await late.goto(link);
  await expect(late.getByRole('heading', { name: 'This invitation was accepted already' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('list', { name: 'Members' }).getByText(email)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Invitations' }).getByText(email)).toHaveCount(0);

  // Leave the seeded agency's team as it was for the other journeys.
  await page.getByRole('button', { name: `Remove ${email}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('list', { name: 'Members' }).getByText(email)).toHaveCount(0);
  await other.close();
  await again.close();
});

test('a client’s settings: name, approval by default and brand, each change in the history; the next link shows the brand', async ({
  page,
  request,
  baseURL,
}) => {
  const t = tag();
  const { clientId } = await createClient(request, `Harbour Bakery ${t}`);
  await signIn(page);
  await page.context().addCookies([{ name: WORKSPACE_COOKIE, value: clientId, url: baseURL! }]);
  await page.goto('/settings');
  await page.waitForLoadState('networkidle');

  await page.getByLabel('Name', { exact: true }).fill(`Harbour Bakery & Café ${t}`);
  await page.getByRole('checkbox', { name: /Posts need approval/ }).check();
  await page.getByRole('button', { name: 'Save workspace' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();

  // A plain-http logo is refused beside the field, nothing saved.
  await page.getByLabel('Brand name').fill(`Harbour Studio ${t}`);
  await page.getByLabel('Logo URL (https)').fill('http://cdn.harbour.example/logo.png');
  await page.getByRole('button', { name: 'Save brand' }).click();
  await expect(page.getByText('The logo must be an https address')).toBeVisible();
  await page.getByLabel('Logo URL (https)').fill('');
  await page.getByRole('button', { name: 'Save brand' }).click();
  await expect(page.getByTestId('brand-preview')).toContainText(`Harbour Studio ${t}`);
  await expect(page.getByTestId('brand-preview')).toContainText('this workspace’s brand');

  const history = page.getByTestId('settings-history');
  await expect(history.locator(':scope > li')).toHaveCount(2);
  await expect(history.locator(':scope > li').first()).toContainText(`Brand name: (none) → Harbour Studio ${t}`);
  await expect(history.locator(':scope > li').nth(1)).toContainText('Approval by default: off → on');
  await expect(history.locator(':scope > li').nth(1)).toContainText(seed().staff.email);

  // The notices of the saves have gone before the pictures.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
    await page.setViewportSize(size);
    await expect(history).toBeVisible();
    await check(page, 'settings-client', viewport);
  }

  // The client's next connect link carries the brand set here.
  const res = await request.post(`/public/v1/workspaces/${clientId}/connect-url`, { headers: { authorization: `Bearer ${seed().apiKey}` }, data: {} });
  expect(res.status()).toBe(201);
  const { rows } = await sql(`SELECT "brandName" FROM "ClientLink" WHERE "workspaceId" = $1 ORDER BY "createdAt" DESC LIMIT 1`, [clientId]);
  expect(rows[0].brandName).toBe(`Harbour Studio ${t}`);
});
