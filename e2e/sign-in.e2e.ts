import { spawn } from 'node:child_process';
import { expect, test } from './test';

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

// The local default works on whichever local address the browser opened (sign-in used to
// round-trip to the configured localhost and lose the cookie set for 127.0.0.1).
for (const host of ['localhost', '127.0.0.1']) {
  test(`signing in on http://${host} keeps the member signed in there`, async ({ page, baseURL }) => {
    const { staff, workspace } = seed();
    const origin = `http://${host}:${new URL(baseURL!).port}`;
    await page.goto(`${origin}/posts`);
    await expect(page).toHaveURL(`${origin}/signin`);
    await expect(page.getByTestId('address-mismatch')).toHaveCount(0);
    await page.getByLabel('Email').fill(staff.email);
    await page.getByLabel('Password').fill(staff.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${origin}/`);
    await expect(page.getByTestId('workspace-name')).toHaveText(workspace.name);
    // Still signed in on this address for the next page.
    await page.goto(`${origin}/posts`);
    await expect(page.getByRole('heading', { name: 'Posts', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(`${origin}/signin`);
  });
}

test('an instance opened at another address than the configured one says so on the sign-in page', async ({ page }) => {
  // The same build, configured for a public address, opened locally.
  const port = 3190 + Math.floor(Math.random() * 9);
  const server = spawn(process.execPath, ['server/runtime/serve.mjs', `--port=${port}`], {
    env: { ...process.env, HERALD_BASE_URL: 'https://herald.example.com', AUTH_URL: 'https://herald.example.com', AUTH_TRUST_HOST: 'true' },
    stdio: 'ignore',
  });
  try {
    await expect(async () => expect((await fetch(`http://127.0.0.1:${port}/signin`)).status).toBe(200)).toPass({ timeout: 60_000 });
    await page.goto(`http://127.0.0.1:${port}/signin`);
    const notice = page.getByTestId('address-mismatch');
    await expect(notice).toContainText('set up to be opened at https://herald.example.com');
    await expect(notice).toContainText('opened at http://127.0.0.1');
    await expect(notice.getByRole('link', { name: 'https://herald.example.com/signin' })).toHaveAttribute('href', 'https://herald.example.com/signin');
  } finally {
    server.kill('SIGTERM');
  }
});
