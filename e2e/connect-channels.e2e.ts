// A channel that asks before connecting, in Chromium: the client connects a Telegram channel
// where the deployment's bot is an admin. The bot's API is a local stand-in answering Telegram's
// documented shapes (https://core.telegram.org/bots/api#getme, #getchat, #getchatmember; the
// bodies are server/platforms/telegram/fixtures/), on the certificate the server trusts.
// A channel where the bot cannot post is refused next to the field, in words; the corrected
// channel connects and is listed. Screenshots of the open form for the README.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { expect, test } from './test';
import { createClient, issueLink, serveLogo } from './client-links-fixtures';
import { receiverCert } from './receiver-cert';
import { analyzeAccessibility } from './screen-check';

const port = Number(process.env.E2E_PORT ?? 3107);
const fixture = (name: string) => JSON.parse(readFileSync(path.resolve('server/platforms/telegram/fixtures', `${name}.json`), 'utf8'));
const OUT = path.resolve('docs/screenshots');

/** Telegram's Bot API for one bot: POST /bot<token>/<method>, JSON in, { ok, result } out. */
function startTelegram() {
  const { key, cert } = receiverCert(port);
  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = req.url!.split('/').at(-1)!;
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString() || '{}') : {};
      const reply =
        method === 'getMe'
          ? fixture('get-me')
          : method === 'getChat'
            ? {
                ...fixture('get-chat'),
                result: {
                  ...fixture('get-chat').result,
                  username: String(body.chat_id).replace('@', ''),
                  title: String(body.chat_id) === '@harborbakery' ? 'Harbor Bakery News' : 'Some Channel',
                },
              }
            : method === 'getChatMember'
              ? fixture(seen.at(-1) === '@harborbakery' ? 'get-chat-member-admin' : 'get-chat-member-no-post')
              : { ok: false, error_code: 404, description: 'Not Found: method not found' };
      if (method === 'getChat') seen.push(String(body.chat_id));
      res.writeHead(reply.ok === false ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply));
    });
  });
  const seen: string[] = [];
  return new Promise<{ close: () => Promise<void> }>((resolve) =>
    server.listen(port + 20, '127.0.0.1', () => resolve({ close: () => new Promise((r) => server.close(() => r())) })),
  );
}

test('a client connects a Telegram channel through the form: refused in words, then connected and listed', async ({ page, request }) => {
  const telegram = await startTelegram();
  try {
    const { clientId, key } = await createClient(request, 'Harbor Bakery');
    const link = await issueLink(request, clientId, 'connect');
    await serveLogo(page);
    await page.goto(link.path);

    // The channel's own button (the form it opens has a submit button of the same name).
    const button = page.getByRole('button', { name: /Connect Telegram/ }).first();
    await expect(button).toContainText('Connect with your account details');
    await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const form = page.getByRole('form', { name: 'Connect Telegram' });
    await expect(form).toContainText('Add @HeraldPostBot to your channel as an administrator who can post messages');
    const channel = form.getByLabel('Channel');
    await expect(channel).toBeFocused();
    expect((await analyzeAccessibility(page)).violations.map((v) => v.id)).toEqual([]);

    for (const [name, viewport] of Object.entries({ desktop: { width: 1280, height: 900 }, mobile: { width: 375, height: 812 } })) {
      await page.setViewportSize(viewport);
      await form.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(OUT, `connect-form-${name}.png`), fullPage: true });
    }

    await channel.fill('@somechannel');
    await form.getByRole('button', { name: 'Connect Telegram' }).click();
    const error = form.getByTestId('connect-error');
    await expect(error).toContainText('@HeraldPostBot is not an administrator of this channel with the right to post messages');
    await expect(channel).toHaveValue('@somechannel');

    await channel.fill('@harborbakery');
    await form.getByRole('button', { name: 'Connect Telegram' }).click();
    await expect(page.getByTestId('connect-confirmation')).toHaveText('Connected Harbor Bakery News on Telegram.');
    await expect(page.getByTestId('connected-accounts')).toContainText('Telegram · @harborbakery');

    const listed = await request.get('/public/v1/connections', { headers: { authorization: `Bearer ${key}` } });
    expect((await listed.json()).data).toEqual([
      expect.objectContaining({ platform: 'telegram', provider: 'live', accountName: '@harborbakery', tokenHealth: 'valid' }),
    ]);
  } finally {
    await telegram.close();
  }
});
