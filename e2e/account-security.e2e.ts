// Protecting staff accounts in Chromium: two-factor enrolment and sign-in (and a recovery
// code), the refusal of a throttled sign-in in words, a session ended elsewhere refused at
// its next request, and a page framed by another origin refused by the browser; with the
// Security screens' accessibility, fit at 375 px and README screenshots.
import { randomBytes } from 'node:crypto';
import { type Browser, type Page } from '@playwright/test';
import { expect, test } from './test';
import { hashPassword } from '../server/auth/password';
import { totpCode, totpStep } from '../server/auth/totp';
import { check, VIEWPORTS } from './screen-check';
import { seed, signIn, sql } from './staff-fixtures';

const PASSWORD = 'a long and unusual passphrase';

/** A member of the seeded agency of their own (the seeded owner keeps signing in with a password alone). */
async function newMember(role = 'member') {
  const email = `member-${randomBytes(4).toString('hex')}@demo-agency.example`;
  const user = await sql(`INSERT INTO "User" (id, email, name, "passwordHash", "updatedAt") VALUES (gen_random_uuid(), $1, $2, $3, now()) RETURNING id`, [
    email,
    'Sam Member',
    await hashPassword(PASSWORD),
  ]);
  await sql(`INSERT INTO "Membership" (id, "userId", "workspaceId", role) VALUES (gen_random_uuid(), $1, $2, $3)`, [
    user.rows[0].id,
    seed().workspace.id,
    role,
  ]);
  return email;
}

// The framing test provokes the browser's frame-ancestors refusal on purpose (and checks it).
test.use({ allowedConsoleErrors: [/frame-ancestors/] });

async function signInAs(page: Page, email: string, password = PASSWORD) {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Content Security Policy complaints in the console: a page whose own scripts were blocked. */
function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(m.text());
  });
  return seen;
}

test('a member turns on two-factor sign-in, then signs in with a code and with a recovery code', async ({ page }) => {
  test.setTimeout(120_000);
  const violations = cspViolations(page);
  const email = await newMember();
  await signInAs(page, email);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  await page.getByRole('link', { name: 'Security' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await page.getByRole('link', { name: 'Set up two-factor sign-in' }).click();
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secretText = page.getByTestId('totp-secret');
  await expect(secretText).toBeVisible();
  const secret = (await secretText.getAttribute('data-secret'))!;
  // The QR code (drawn on the server from the otpauth:// link) is an image the browser renders.
  const qr = page.getByTestId('totp-qr');
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, { width: number; height: number }][]) {
    await page.setViewportSize(size);
    await check(page, 'two-factor-setup', viewport);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.getByLabel('Code from the app').fill('000000');
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(page.getByText('That code does not match')).toBeVisible();
  await page.getByLabel('Code from the app').fill(totpCode(secret, totpStep(new Date())));
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(page.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
  const codes = (await page.getByTestId('recovery-codes').locator('li').allTextContents()).map((c) => c.trim());
  await page.getByRole('link', { name: 'I saved them: continue' }).click();
  await expect(page.getByText('10 of 10 recovery codes left')).toBeVisible();

  // The password alone no longer signs in: the code step follows.
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await signInAs(page, email);
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await page.getByLabel('Code').fill('123456');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('sign-in-refused')).toContainText('That code does not match');
  // The enrolment spent this step's code: the next step's is accepted (one step of drift).
  await page.getByLabel('Code').fill(totpCode(secret, totpStep(new Date()) + 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  // Lost phone: a recovery code instead, once.
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await signInAs(page, email);
  await page.getByLabel('Code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await page.goto('/security');
  await expect(page.getByText('9 of 10 recovery codes left')).toBeVisible();
  expect(violations).toEqual([]);
});

test('a throttled sign-in says so in words, with when to try again', async ({ page }) => {
  const email = await newMember();
  for (let i = 1; i <= 5; i++) await signInAs(page, email, `wrong password ${i}`);
  await expect(page.getByTestId('sign-in-refused')).toHaveText(/Too many failed sign-ins: wait a little before the next try\. Try again in \d seconds?\./);
  // Once the wait has passed, the right password signs in (and the count starts again).
  await page.waitForTimeout(2_100);
  await signInAs(page, email);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});

async function signedInContext(browser: Browser, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, email);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  return { context, page };
}

test('a session ended from another device is refused at its next request', async ({ browser }) => {
  const email = await newMember();
  const laptop = await signedInContext(browser, email);
  const phone = await signedInContext(browser, email);
  expect((await phone.page.request.get('/api/trpc/posts.pendingApprovals')).status()).toBe(200);

  await laptop.page.goto('/security');
  const sessions = laptop.page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
  await expect(sessions).toHaveCount(2);
  await expect(sessions.first()).toContainText('This device');
  await laptop.page.getByRole('button', { name: /^End session on / }).click();
  await expect(sessions).toHaveCount(1);

  // The phone's very next request: refused by the API, sent to sign in by the app.
  expect((await phone.page.request.get('/api/trpc/posts.pendingApprovals')).status()).toBe(401);
  await phone.page.goto('/posts');
  await expect(phone.page).toHaveURL(/\/signin/);
  // The laptop goes on.
  expect((await laptop.page.request.get('/api/trpc/posts.pendingApprovals')).status()).toBe(200);
  await laptop.context.close();
  await phone.context.close();
});

test("the owner's Security screen: members, the requirement, security events", async ({ page }) => {
  test.setTimeout(90_000);
  const violations = cspViolations(page);
  await signIn(page);
  await page.goto('/security');
  await expect(page.getByRole('list', { name: 'Members' })).toContainText(seed().staff.email);
  await expect(page.getByRole('list', { name: 'Security events' })).toContainText('Signed in');
  await expect(page.getByLabel('Require it for every member')).toBeDisabled();
  for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, { width: number; height: number }][]) {
    await page.setViewportSize(size);
    await page.goto('/security');
    await expect(page.getByRole('list', { name: 'Security events' })).toBeVisible();
    await check(page, 'security', viewport);
  }
  expect(violations).toEqual([]);
});

test('pages carry the security headers, and another origin cannot frame them', async ({ page, request, baseURL }) => {
  const signin = await request.get('/signin');
  const csp = signin.headers()['content-security-policy']!;
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(signin.headers()['x-content-type-options']).toBe('nosniff');
  expect(signin.headers()['x-frame-options']).toBe('DENY');
  expect(signin.headers()['referrer-policy']).toBe('strict-origin');
  // Served over plain http here: no HSTS (it is sent once a page comes over https).
  expect(signin.headers()['strict-transport-security']).toBeUndefined();
  // Every script Next renders carries this response's nonce.
  const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
  const html = await signin.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const s of scripts) expect(s).toContain(`nonce="${nonce}"`);
  expect((await request.get('/signin')).headers()['content-security-policy']).not.toContain(nonce);
  // Token pages send no Referer; the API's answers are as the contract has them.
  expect((await request.get('/review/not-a-real-token')).headers()['referrer-policy']).toBe('no-referrer');
  expect((await request.get('/connect/not-a-real-token')).headers()['referrer-policy']).toBe('no-referrer');
  expect((await request.get('/oauth/authorize', { maxRedirects: 0 })).headers()['referrer-policy']).toBe('same-origin');
  expect((await request.get('/public/v1/posts')).headers()['content-security-policy']).toBeUndefined();
  // The same on the other hosting (`next start`).
  const other = await request.get(`${process.env.E2E_ROUTE_HANDLERS_URL}/signin`);
  expect(other.headers()['content-security-policy']).toContain("frame-ancestors 'none'");

  // A page of another origin framing the sign-in page and the consent: the browser refuses.
  await page.route('http://framer.example/', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>framer</title><iframe id="a" src="${baseURL}/signin"></iframe><iframe id="b" src="${baseURL}/review/not-a-real-token"></iframe>`,
    }),
  );
  const blocked: string[] = [];
  page.on('console', (m) => {
    if (/frame-ancestors/.test(m.text())) blocked.push(m.text());
  });
  await page.goto('http://framer.example/');
  // Chromium reports the refusal in the console and shows its error page in the frame.
  const refused = () =>
    blocked.length >= 2 ||
    page
      .frames()
      .slice(1)
      .every((f) => f.url().startsWith('chrome-error://'));
  await expect.poll(refused).toBe(true);
  expect(page.frames()).toHaveLength(3);
  for (const frame of page.frames().slice(1)) {
    expect(await frame.locator('input[name="email"], form').count()).toBe(0);
  }
});
