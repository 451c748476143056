// What the connect page shows when the browser comes back from a platform: the platform's
// refusal in words, or (Facebook, Instagram) the accounts to choose from, then the
// confirmation and the account in the list.
import { analyzeAccessibility } from './screen-check';
import { expect, test } from './test';
import { sealValue } from '@/server/connections/token-sealing';
import { createClient, issueLink, returnedAttempt, serveLogo } from './client-links-fixtures';

const page101 = { externalId: '101', accountName: 'Harbor Bakery', displayName: 'Harbor Bakery', kind: 'Facebook Page' };
const page202 = { externalId: '202', accountName: 'Harbor Bakery Events', displayName: 'Harbor Bakery Events', kind: 'Facebook Page' };
const granted = (p: typeof page101) => ({
  ...p,
  avatarUrl: null,
  accessToken: `page-token-${p.externalId}`,
  refreshToken: null,
  expiresAt: null,
  scopes: 'pages_manage_posts',
});

test('after a Facebook consent the client picks a Page, sees the confirmation and the Page listed', async ({ page, request, context, baseURL }) => {
  const { clientId } = await createClient(request, 'Harbor Bakery');
  const link = await issueLink(request, clientId, 'connect');
  const attempt = await returnedAttempt(link.token, {
    platform: 'facebook',
    status: 'choosing',
    choicesSealed: sealValue(JSON.stringify([granted(page101), granted(page202)])),
  });
  await context.addCookies([{ name: 'herald_connect', value: attempt.cookie, url: baseURL! }]);
  await serveLogo(page);

  await page.goto(`${link.path}?attempt=${attempt.id}`);
  await expect(page.getByRole('heading', { name: 'Which Facebook account should Northwind Studio publish to?' })).toBeVisible();
  await expect(page.getByRole('radio')).toHaveCount(2);
  const results = await analyzeAccessibility(page, ['wcag2a', 'wcag2aa']);
  expect(results.violations.map((v) => v.id)).toEqual([]);

  await page.getByRole('radio', { name: /Harbor Bakery Events/ }).check();
  await page.getByRole('button', { name: 'Connect this account' }).click();
  await expect(page.getByTestId('connect-confirmation')).toHaveText('Connected Harbor Bakery Events on Facebook.');
  await expect(page.getByTestId('connected-accounts')).toContainText('Harbor Bakery Events');
  await expect(page.getByRole('radio')).toHaveCount(0);
});

test('a refused consent and an unverifiable callback come back as readable messages', async ({ page, request }) => {
  const { clientId } = await createClient(request, 'Harbor Bakery');
  const link = await issueLink(request, clientId, 'connect');
  const failed = await returnedAttempt(link.token, {
    platform: 'linkedin',
    status: 'failed',
    error: 'You cancelled the connection on LinkedIn. Nothing was connected.',
  });
  await serveLogo(page);
  await page.goto(`${link.path}?attempt=${failed.id}`);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('You cancelled the connection on LinkedIn. Nothing was connected.');
  await page.goto(`${link.path}?error=state`);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('We could not verify that sign-in, so nothing was connected. Please try again.');
  await expect(page.getByText('No accounts connected yet.')).toBeVisible();
});
