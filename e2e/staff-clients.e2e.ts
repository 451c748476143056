// The agency's side of clients, connections and keys, in Chromium against `next start`:
// create a client, mint its key (copied from the page), send it a connect link the client
// opens to connect a sandbox account, then see that account in the client's workspace;
// mint and revoke a key (401 at once); the disconnect warning; and each screen's checks.
import { type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { expect, test } from './test';
import { connectSandbox, createClient, issueLink } from './client-links-fixtures';
import { check, VIEWPORTS, type Viewport } from './screen-check';
import { signIn, tag } from './staff-fixtures';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function actIn(context: BrowserContext, page: Page, workspaceId: string) {
  await context.addCookies([{ name: 'herald_ws', value: workspaceId, url: new URL(page.url()).origin }]);
}

/** The value shown once in the region labelled `label` (a key's secret or a link). */
const shownOnce = (page: Page, label: RegExp) => page.getByRole('region', { name: label }).getByRole('textbox');

test('create a client, mint its key, send a connect link the client uses, see the account under the client', async ({ page, context, request }) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const t = tag();
  const name = `Harbor Bakery ${t}`;
  await signIn(page);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clients' }).click();
  await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New client workspace' });
  await dialog.getByLabel('Name').fill(name);
  // The address previews as the name is typed, by the server's own derivation.
  await expect(dialog.getByText(`Address: harbor-bakery-${t}`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const clientId = page.url().split('/').at(-1)!;

  // Mint a key: scopes come with what they allow; the secret is shown once, with a copy button.
  await expect(page.getByText('connections:read')).toBeVisible();
  await expect(page.getByText('see the connected social accounts')).toBeVisible();
  await expect(page.getByText('workspaces:manage')).toHaveCount(0);
  await page.getByLabel('Key name').fill(`Scheduler ${t}`);
  await page.getByRole('button', { name: 'Mint key' }).click();
  const secretBox = shownOnce(page, /Secret of/);
  await expect(secretBox).toHaveValue(/^sk_live_/);
  await expect(page.getByText('cannot show this secret again')).toBeVisible();
  await page.getByRole('button', { name: /Copy secret of/ }).click();
  const secret = await page.evaluate(() => navigator.clipboard.readText());
  expect(secret).toBe(await secretBox.inputValue());
  const before = await request.get('/public/v1/connections', { headers: bearer(secret) });
  expect(before.status()).toBe(200);
  expect((await before.json()).data).toEqual([]);

  // A connect link, branded; copied and listed as live.
  await page.getByLabel('Brand name (optional)').fill('Northwind Studio');
  await page.getByRole('button', { name: 'Create link' }).click();
  const linkBox = shownOnce(page, /^Connect link$/);
  await expect(linkBox).toHaveValue(/\/connect\/[A-Za-z0-9_-]{43}$/);
  const url = await linkBox.inputValue();
  await expect(page.getByRole('list', { name: 'Live links' })).toContainText('Northwind Studio');

  // The client opens it in its own page and connects a sandbox account.
  const clientPage = await context.newPage();
  await clientPage.goto(url);
  await expect(clientPage.getByText('Northwind Studio', { exact: true })).toBeVisible();
  await clientPage.getByRole('button', { name: /Connect LinkedIn/ }).click();
  await expect(clientPage.getByTestId('connect-confirmation')).toContainText('on LinkedIn');
  await clientPage.close();

  // A report link of the last month, titled, sent from the same form; the client opens it without a login.
  await page.locator('#link-kind').selectOption('report');
  await page.getByLabel('Title (optional)').fill('Your month with us');
  await page.getByRole('button', { name: 'Create link' }).click();
  const reportBox = shownOnce(page, /^Report link$/);
  await expect(reportBox).toHaveValue(/\/report\/[A-Za-z0-9_-]{43}$/);
  const reportPage = await context.newPage();
  await reportPage.goto(await reportBox.inputValue());
  await expect(reportPage.getByRole('heading', { level: 1 })).toContainText('Your month with us');
  await expect(reportPage.getByTestId('report-pdf')).toBeVisible();
  await reportPage.close();
  await expect(page.getByRole('list', { name: 'Live links' })).toContainText('Northwind Studio');

  // Switch to the client: its Connections screen lists the account.
  await page.getByRole('button', { name: 'Open workspace' }).click();
  await expect(page.getByRole('heading', { name: 'Connections', level: 1 })).toBeVisible();
  await expect(page.getByTestId('workspace-name')).toHaveText(name);
  const accounts = page.getByRole('list', { name: 'Connected accounts' });
  await expect(accounts).toContainText('LinkedIn');
  // A sandbox account's access does not lapse: its health is known, not "unknown".
  await expect(accounts).toContainText('valid');
  await expect(accounts).not.toContainText('unknown');
  // …and the minted key sees it too, with no header.
  const after = await request.get('/public/v1/connections', { headers: bearer(secret) });
  expect((await after.json()).data.map((c: { platform: string }) => c.platform)).toEqual(['linkedin']);
  expect(clientId).toMatch(/^[0-9a-f-]{36}$/);
});

test('API keys: mint, revoke, and the revoked key is refused at once', async ({ page, request }) => {
  const t = tag();
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await page.getByLabel('Key name').fill(`CI ${t}`);
  // Only reading posts: untick the rest.
  for (const box of await page.getByRole('group', { name: 'What the key may do' }).getByRole('checkbox').all()) {
    if ((await box.getAttribute('value')) !== 'posts:read') await box.uncheck();
  }
  await page.getByRole('button', { name: 'Mint key' }).click();
  const secret = await shownOnce(page, /Secret of/).inputValue();
  expect(secret).toMatch(/^sk_live_/);
  expect((await request.get('/public/v1/posts', { headers: bearer(secret) })).status()).toBe(200);
  const card = page
    .getByRole('list', { name: 'API keys' })
    .getByRole('listitem')
    .filter({ hasText: `CI ${t}` });
  await expect(card).toContainText(secret.slice(0, 16));
  await expect(card).toContainText('posts:read');

  await page.getByRole('button', { name: `Revoke CI ${t}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByRole('list', { name: 'API keys' })).not.toContainText(`CI ${t}`);
  expect((await request.get('/public/v1/posts', { headers: bearer(secret) })).status()).toBe(401);
});

test('a member connects an account from the Connections screen through the hosted connect page', async ({ page, context, request }) => {
  const t = tag();
  const { clientId, key } = await createClient(request, `Pier Books ${t}`);
  await signIn(page);
  await actIn(context, page, clientId);
  await page.goto('/connections');
  await expect(page.getByText('No accounts connected')).toBeVisible();
  const [connectPage] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Connect an account' }).click()]);
  await expect(connectPage).toHaveURL(/\/connect\/[A-Za-z0-9_-]{43}$/);
  await connectPage.getByRole('button', { name: /Connect Facebook/ }).click();
  await expect(connectPage.getByTestId('connect-confirmation')).toContainText('on Facebook');
  await connectPage.close();
  // The app stayed where it was; coming back shows the account.
  await expect(page).toHaveURL(/\/connections$/);
  await page.reload();
  await expect(page.getByRole('list', { name: 'Connected accounts' })).toContainText('Facebook');
  const listed = await request.get('/public/v1/connections', { headers: bearer(key) });
  expect((await listed.json()).data.map((c: { platform: string }) => c.platform)).toEqual(['facebook']);
});

/** A client with a sandbox account connected through its link, and a scheduled post on it. */
async function clientWithScheduledPost(request: APIRequestContext, name: string) {
  const { clientId, key } = await createClient(request, name);
  const link = await issueLink(request, clientId, 'connect');
  const connectionId = await connectSandbox(request, link.token, 'linkedin');
  const res = await request.post('/public/v1/posts', {
    headers: bearer(key),
    data: { content: `Weekend opening hours ${name}`, connectionIds: [connectionId], scheduledAt: new Date(Date.now() + 2 * 86_400_000).toISOString() },
  });
  expect(res.status()).toBe(201);
  return { clientId, key, postId: (await res.json()).data.id as string };
}

test('disconnecting an account warns about the scheduled posts that target it', async ({ page, context, request }) => {
  const t = tag();
  const { clientId, key, postId } = await clientWithScheduledPost(request, `Quay Cafe ${t}`);
  await signIn(page);
  await actIn(context, page, clientId);
  await page.goto('/connections');
  await page.getByRole('button', { name: /^Disconnect / }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('alert')).toContainText('1 draft or scheduled post targets this account.');
  await expect(dialog.getByRole('alert')).toContainText('will be cancelled');
  await expect(dialog).toContainText(`Weekend opening hours Quay Cafe ${t}`);
  await dialog.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByRole('list', { name: 'Connected accounts' })).toContainText('expired');
  await expect(page.getByRole('list', { name: 'Connected accounts' })).toContainText('Disconnected in Herald');
  const post = await request.get(`/public/v1/posts/${postId}`, { headers: bearer(key) });
  expect((await post.json()).data.status).toBe('cancelled');
});

test('the clients, client, connections and API keys screens are accessible, fit 375 px, and are pictured', async ({ page, context, request }) => {
  test.setTimeout(120_000);
  const t = tag();
  const { clientId } = await clientWithScheduledPost(request, `Old Mill Bakery ${t}`);
  await issueLink(request, clientId, 'review');
  await signIn(page);
  const screens: [string, string, () => Promise<void>, string | null][] = [
    ['clients', '/clients', () => expect(page.getByRole('list', { name: 'Client workspaces' })).toContainText(`Old Mill Bakery ${t}`), null],
    ['client', `/clients/${clientId}`, () => expect(page.getByRole('list', { name: 'Live links' }).getByRole('listitem')).toHaveCount(2), null],
    ['connections', '/connections', () => expect(page.getByRole('list', { name: 'Connected accounts' })).toContainText('LinkedIn'), clientId],
    ['api-keys', '/api-keys', () => expect(page.getByRole('list', { name: 'API keys' }).getByRole('listitem').first()).toBeVisible(), clientId],
  ];
  for (const [viewport, size] of Object.entries(VIEWPORTS) as [Viewport, (typeof VIEWPORTS)[Viewport]][]) {
    await page.setViewportSize(size);
    for (const [name, url, ready, workspace] of screens) {
      if (workspace) await actIn(context, page, workspace);
      await page.goto(url);
      await ready();
      await check(page, name, viewport);
    }
  }
});
