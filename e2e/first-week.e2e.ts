// A real agency's first week, on a Herald server of its own (the same build) over a database
// that starts empty, with its own local mailbox and no demo accounts (the default without the
// embedded database). An owner signs up, opens Networks (what each network needs before real
// accounts connect) and connects a real Bluesky account against a local stand-in of the AT
// Protocol server (the PDS answering com.atproto.server.createSession and
// app.bsky.actor.getProfile as documented: https://docs.bsky.app/docs/api/com-atproto-server-create-session,
// https://docs.bsky.app/docs/api/app-bsky-actor-get-profile; bodies from
// server/platforms/bluesky/fixtures/), on a certificate only this server trusts. The owner forgets the
// password, asks for a link (an unknown address gets the same answer), reads it from the
// mailbox, sets a new password (the rules in words on the field), is signed out of the other
// browser, signs in with the new one, and finds the used link saying so. Then the owner
// deletes the agency, reads what that means, and signs up again at once with the same email,
// into an agency that holds nothing of the old one.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { type Page } from '@playwright/test';
import { expect, test } from './test';
import { ownHerald } from './own-herald';
import { receiverCert } from './receiver-cert';
import { check, VIEWPORTS } from './screen-check';

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

const herald = ownHerald('reset');
const mailbox = () => herald.mailbox();
let origin = 'http://localhost:3185';
/** The stand-in PDS, on the certificate this server alone trusts. */
const pdsPort = 3186;
const pds = `https://127.0.0.1:${pdsPort}`;
const cert = receiverCert(3185);
let pdsServer: https.Server | undefined;
const bluesky = (name: string) => readFileSync(path.resolve('server/platforms/bluesky/fixtures', `${name}.json`), 'utf8');

function startPds(): Promise<https.Server> {
  const server = https.createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const method = new URL(req.url!, pds).pathname;
      const json = (status: number, body: string) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body);
      };
      if (req.method === 'POST' && method === '/xrpc/com.atproto.server.createSession')
        return json(200, bluesky('create-session').replace('PDS_ENDPOINT', pds));
      if (req.method === 'GET' && method === '/xrpc/app.bsky.actor.getProfile') {
        // No avatar: this machine cannot reach Bluesky's CDN (avatar is optional in the lexicon).
        const { avatar: _avatar, ...profile } = JSON.parse(bluesky('get-profile')) as Record<string, unknown>;
        return json(200, JSON.stringify(profile));
      }
      json(501, JSON.stringify({ error: 'MethodNotImplemented', message: `${method} is not implemented` }));
    });
  });
  return new Promise((resolve) => server.listen(pdsPort, '127.0.0.1', () => resolve(server)));
}

test.beforeAll(async () => {
  await herald.create();
  pdsServer = await startPds();
  // The default mode: a Herald for one agency, whose first run creates it.
  origin = (
    await herald.start(3185, {
      SIGNUP_MODE: 'single',
      CONNECT_SANDBOX: 'off',
      // Only this server may call 127.0.0.1, and it trusts the stand-in PDS's certificate.
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      NODE_EXTRA_CA_CERTS: cert.certPath,
    })
  ).origin;
});

test.afterAll(async () => {
  pdsServer?.close();
  await herald.destroy();
});

/** The link of the newest reset mail to `email`, waiting for it (it is sent after the answer). */
async function resetLinkFor(email: string, count: number): Promise<string> {
  let link = '';
  await expect(() => {
    const mails = mailbox().filter((m) => m.to === email && m.subject === 'Reset your Herald password');
    expect(mails).toHaveLength(count);
    link = /https?:\/\/\S+\/signin\/reset\/[A-Za-z0-9_-]+/.exec(mails[0]!.text)![0];
  }).toPass({ timeout: 15_000 });
  return link;
}

const owner = { agency: 'Harbour Studio', name: 'Lena Marsh', email: 'lena@harbour-studio.example', password: 'tide tables every monday' };
const NEW_PASSWORD = 'lighthouse keeper at dawn';

async function signUp(page: Page, who: { agency: string; name: string; email: string; password: string }) {
  await page.getByLabel('Agency name').fill(who.agency);
  await page.getByLabel('Your name').fill(who.name);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Create the agency' }).click();
  await expect(page).toHaveURL(`${origin}/`);
  await expect(page.getByTestId('workspace-name')).toHaveText(who.agency);
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${origin}/signin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The page at both viewports: axe (no serious violation), nothing wider than the screen, its screenshot. */
async function pictured(page: Page, name: string) {
  for (const viewport of ['desktop', 'mobile'] as const) {
    await page.setViewportSize(VIEWPORTS[viewport]);
    await check(page, name, viewport);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
}

test('an owner who forgot the password resets it by email, once, and the other browser is signed out', async ({ page, browser }) => {
  await page.goto(`${origin}/`);
  await expect(page).toHaveURL(`${origin}/signup`);
  await signUp(page, owner);
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(`${origin}/signin`);

  // A second browser, signed in with the old password: the reset will end its session.
  const other = await (await browser.newContext()).newPage();
  await signIn(other, owner.email, owner.password);
  await expect(other.getByTestId('workspace-name')).toHaveText(owner.agency);

  // Forgotten: from the sign-in page, the email; the answer never says whether it has an account.
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(`${origin}/signin/forgot`);
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Email').fill('nobody@harbour-studio.example');
  await page.getByRole('button', { name: 'Send the link' }).click();
  const unknownAnswer = await page.getByTestId('reset-sent').innerText();
  expect(unknownAnswer).toContain('If an account exists for nobody@harbour-studio.example, we sent a link to it.');
  await pictured(page, 'password-forgot');
  await page.goto(`${origin}/signin/forgot`);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  const knownAnswer = await page.getByTestId('reset-sent').innerText();
  expect(knownAnswer.replace(owner.email, 'X')).toBe(unknownAnswer.replace('nobody@harbour-studio.example', 'X'));
  expect(mailbox().filter((m) => m.to === 'nobody@harbour-studio.example')).toEqual([]);

  // The link from the mailbox: the sign-up's password rules, in words, on the field.
  const link = await resetLinkFor(owner.email, 1);
  expect(link.startsWith(`${origin}/signin/reset/`)).toBe(true);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await expect(page.getByText(`For ${owner.email}.`)).toBeVisible();
  await pictured(page, 'password-reset');
  await page.getByRole('textbox', { name: /^New password/ }).fill('lena sails the harbour');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'must not contain “lena”, the name in your email address' })).toBeVisible();
  await page.getByRole('textbox', { name: /^New password/ }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Set the new password' }).click();

  // Told to sign in: the old password no longer works, the new one does.
  await expect(page).toHaveURL(`${origin}/signin?reset=done`);
  await expect(page.getByTestId('reset-done')).toContainText('Your password is changed');
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('sign-in-refused')).toContainText('do not match');
  await signIn(page, owner.email, NEW_PASSWORD);
  await expect(page.getByTestId('workspace-name')).toHaveText(owner.agency);

  // The other browser's session ended with the reset.
  await other.goto(`${origin}/`);
  await expect(other).toHaveURL(`${origin}/signin`);
  await other.context().close();

  // The link worked once: opened again, it says so, with a way to ask for another.
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'This reset link was used already' })).toBeVisible();
  await expect(page.getByTestId('reset-closed')).toHaveAttribute('data-state', 'used');
  await page.getByRole('link', { name: 'Ask for a new link' }).click();
  await expect(page).toHaveURL(`${origin}/signin/forgot`);
});

test('the owner sees what each network needs on Networks, and connects a real Bluesky account out of the box', async ({ page }) => {
  await signIn(page, owner.email, NEW_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Networks' }).click();
  await expect(page).toHaveURL(`${origin}/networks`);
  await expect(page.getByRole('heading', { name: 'Networks', level: 1 })).toBeVisible();
  const blueskyCard = page.getByTestId('network-bluesky');
  await expect(blueskyCard).toContainText('Ready for real accounts');
  await expect(page.getByTestId('network-mastodon')).toContainText('Ready for real accounts');
  const linkedin = page.getByTestId('network-linkedin');
  await expect(linkedin).toContainText('Needs an app');
  await expect(linkedin).toContainText(`${origin}/connect/callback/linkedin`);
  await expect(linkedin).toContainText('w_member_social');
  await expect(linkedin).toContainText('LINKEDIN_CLIENT_ID');
  await expect(linkedin.getByRole('link', { name: /LinkedIn developer console/ })).toHaveAttribute('href', 'https://www.linkedin.com/developers/apps');
  await linkedin.getByRole('button', { name: 'Check the credentials' }).click();
  await expect(page.getByTestId('check-linkedin')).toContainText('Set LINKEDIN_CLIENT_ID and LINKEDIN_CLIENT_SECRET first.');
  await expect(page.getByTestId('network-telegram')).toContainText('Needs a bot token');
  // This server's address is localhost: the page says the networks need a public https one.
  await expect(page.getByRole('note').filter({ hasText: 'HERALD_BASE_URL' })).toBeVisible();
  await pictured(page, 'networks');

  // Connections → the workspace's own connect page, in a new tab: Bluesky connects for real.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connections' }).click();
  const [connect] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Connect an account' }).click()]);
  await connect.waitForLoadState();
  await expect(connect.getByText(`This is ${owner.agency}’s own connect link`)).toBeVisible();
  // No demo accounts on this Herald: a network without an app says so, and offers no demo.
  await expect(connect.getByRole('button', { name: /Connect LinkedIn/ })).toBeDisabled();
  await expect(connect.getByRole('button', { name: /demo account/ })).toHaveCount(0);
  await connect.getByRole('button', { name: /Connect Bluesky/ }).click();
  const form = connect.getByRole('form', { name: 'Connect Bluesky' });
  await form.getByLabel('Handle or email').fill('heraldcoffee.bsky.social');
  await form.getByLabel('App password').fill('abcd-efgh-ijkl-mnop');
  await form.getByLabel(/Server/).fill(pds);
  await form.getByRole('button', { name: 'Connect Bluesky' }).click();
  await expect(connect.getByTestId('connect-confirmation')).toHaveText('Connected Herald Coffee on Bluesky.');
  await expect(connect.getByTestId('connected-accounts')).toContainText('heraldcoffee.bsky.social');
  await connect.close();
  await page.reload();
  await expect(page.getByRole('list', { name: 'Connected accounts' })).toContainText('Herald Coffee');
});

test('an owner deletes the agency and signs up again at once with the same email, into an agency holding nothing of the old', async ({ page }) => {
  await signIn(page, owner.email, NEW_PASSWORD);
  await expect(page.getByTestId('workspace-name')).toHaveText(owner.agency);
  // Something of the old agency's: the Bluesky account connected above.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connections' }).click();
  await expect(page.getByRole('list', { name: 'Connected accounts' })).toContainText('Herald Coffee');

  // The confirmation link from sign-up: it confirms once; opened again it says so, and leads
  // into the app (the dashboard no longer offers a new link once the address is confirmed).
  const confirm = mailbox().find((m) => m.to === owner.email && m.subject === 'Confirm your email for Herald')!;
  const confirmLink = /https?:\/\/\S+/.exec(confirm.text)![0];
  await page.goto(confirmLink);
  await expect(page.getByTestId('verify-result')).toHaveAttribute('data-state', 'confirmed');
  await page.goto(confirmLink);
  await expect(page.getByRole('heading', { name: 'Email already confirmed' })).toBeVisible();
  await expect(page.getByTestId('verify-result')).toContainText(`${owner.email} was confirmed already`);
  await page.getByRole('link', { name: 'Open Herald' }).click();
  await expect(page.getByTestId('workspace-name')).toHaveText(owner.agency);

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Delete the agency…' }).click();
  const dialog = page.getByRole('dialog', { name: `Delete ${owner.agency}?` });
  await dialog.getByLabel(/Type the agency’s name/).fill(owner.agency);
  await dialog.getByRole('button', { name: 'Delete the agency' }).click();

  // A page of its own, styled like the other no-login pages: what closed, when the rest goes,
  // and that the email can sign up again.
  await expect(page).toHaveURL(/\/agency-deleted\?/);
  await expect(page.getByRole('heading', { name: 'Your agency is deleted' })).toBeVisible();
  await expect(page.getByTestId('purge-date')).toContainText('removed for good on');
  await expect(page.getByTestId('email-next')).toContainText('Your email is free again');
  const card = page.getByTestId('agency-deleted');
  expect(await card.evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe('solid');
  await pictured(page, 'agency-deleted');

  // Signing in leads to sign-up (no agency here any more), which says why.
  await page.goto(`${origin}/signin`);
  await expect(page).toHaveURL(`${origin}/signup`);
  await expect(page.getByTestId('signup-intro')).toContainText('the last one was deleted');

  await page.goto(`${origin}/agency-deleted`);
  await page.getByRole('link', { name: 'Sign up again' }).click();
  await expect(page).toHaveURL(`${origin}/signup`);
  await signUp(page, { agency: 'Harbour Studio Again', name: owner.name, email: owner.email, password: 'a second tide this spring' });

  // The new agency starts empty: no account of the old one, and the old agency is nowhere.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connections' }).click();
  await expect(page.getByText('No accounts connected')).toBeVisible();
  await page.getByRole('button', { name: /Switch workspace/ }).click();
  await expect(page.getByRole('menu')).toContainText('Harbour Studio Again');
  await expect(page.getByRole('menu')).not.toContainText(/Harbour Studio(?! Again)/);
  await page.keyboard.press('Escape');

  // The email signs in to the new account, with its own password only.
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await signIn(page, owner.email, NEW_PASSWORD);
  await expect(page.getByTestId('sign-in-refused')).toContainText('do not match');
  await signIn(page, owner.email, 'a second tide this spring');
  await expect(page.getByTestId('workspace-name')).toHaveText('Harbour Studio Again');
});
