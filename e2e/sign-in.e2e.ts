import { expect, test } from '@playwright/test';

const seed = () => JSON.parse(process.env.HERALD_SEED ?? '{}') as { staff: { email: string; password: string }; workspace: { name: string } };

test('a staff member signs in and sees the app shell', async ({ page }) => {
  const { staff, workspace } = seed();
  await page.goto('/');
  await expect(page).toHaveURL(/\/signin/);

  await page.getByLabel('Email').fill(staff.email);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'do not match' })).toBeVisible();

  await page.getByLabel('Email').fill(staff.email);
  await page.getByLabel('Password').fill(staff.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('workspace-name')).toHaveText(workspace.name);
  await expect(page.getByRole('navigation', { name: 'Main' })).toContainText('Approvals');
  await expect(page.getByText(`Signed in as ${staff.email}`)).toBeVisible();

  // The app's tRPC endpoint serves the signed-in member (the same routers as the REST API).
  const queue = await page.request.get('/api/trpc/posts.pendingApprovals');
  expect(queue.status()).toBe(200);
  expect((await queue.json()).result.data).toEqual({ data: [] });

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/signin/);
  // Signed out, the endpoint asks for credentials like the API does.
  expect((await page.request.get('/api/trpc/posts.pendingApprovals')).status()).toBe(401);
});
