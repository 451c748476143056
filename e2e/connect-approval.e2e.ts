// A channel approved in the network's own app, in Chromium: the client connects a Farcaster
// account. Neynar's API is a local stand-in answering its documented shapes
// (https://docs.neynar.com/reference/create-signer, /register-signed-key, /lookup-signer,
// /fetch-bulk-users; the bodies are server/platforms/farcaster/fixtures/), on the certificate
// the server trusts. The page shows the approval link; "I approved it" before the approval says
// not yet; once Neynar says approved, the page's own check connects the account, which is listed.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { expect, test } from './test';
import { createClient, issueLink, serveLogo } from './client-links-fixtures';
import { receiverCert } from './receiver-cert';
import { analyzeAccessibility } from './screen-check';

const port = Number(process.env.E2E_PORT ?? 3107);
const fixture = (name: string) => JSON.parse(readFileSync(path.resolve('server/platforms/farcaster/fixtures', `${name}.json`), 'utf8'));

/** Neynar for one signer: pending until `approve()` is called, then approved for fid 194. */
function startNeynar() {
  const { key, cert } = receiverCert(port);
  let approved = false;
  const server = https.createServer({ key, cert }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const { pathname } = new URL(req.url!, 'https://neynar.test');
      const reply =
        req.method === 'POST' && pathname === '/v2/farcaster/signer'
          ? fixture('signer-created')
          : req.method === 'POST' && pathname === '/v2/farcaster/signer/signed_key'
            ? fixture('signer-pending')
            : req.method === 'GET' && pathname === '/v2/farcaster/signer'
              ? fixture(approved ? 'signer-approved' : 'signer-pending')
              : req.method === 'GET' && pathname === '/v2/farcaster/user/bulk'
                ? fixture('user-bulk')
                : null;
      res.writeHead(reply ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply ?? { code: 'NotFound', message: 'Not found', status: 404 }));
    });
  });
  return new Promise<{ approve: () => void; close: () => Promise<void> }>((resolve) =>
    server.listen(port + 21, '127.0.0.1', () =>
      resolve({
        approve: () => {
          approved = true;
        },
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

test('a client connects Farcaster by approving in the Farcaster app: not yet, then connected and listed', async ({ page, request }) => {
  const neynar = await startNeynar();
  try {
    const { clientId, key } = await createClient(request, 'Herald Coffee');
    const link = await issueLink(request, clientId, 'connect');
    await serveLogo(page);
    await page.goto(link.path);

    const button = page.getByRole('button', { name: /Connect Farcaster/ });
    await expect(button).toContainText('Approve in the app, then come back');
    await button.click();
    const approval = page.getByTestId('connect-approval');
    await expect(approval).toContainText('Open the link in the Farcaster app');
    await expect(approval.getByRole('link', { name: 'Open the approval in Farcaster' })).toHaveAttribute('href', fixture('signer-pending').signer_approval_url);
    expect((await analyzeAccessibility(page)).violations.map((v) => v.id)).toEqual([]);

    await approval.getByRole('button', { name: 'I approved it — continue' }).click();
    await expect(page.getByTestId('connect-approval-note')).toContainText('Not approved yet');

    // The page checks by itself every few seconds: the approval may come from a phone.
    neynar.approve();
    await expect(page.getByTestId('connect-confirmation')).toHaveText('Connected Herald Coffee on Farcaster.');
    await expect(page.getByTestId('connected-accounts')).toContainText('Farcaster · @heraldcoffee');

    const listed = await request.get('/public/v1/connections', { headers: { authorization: `Bearer ${key}` } });
    expect((await listed.json()).data).toEqual([expect.objectContaining({ platform: 'farcaster', provider: 'live', accountName: '@heraldcoffee' })]);
  } finally {
    await neynar.close();
  }
});
