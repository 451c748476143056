// Connecting a Farcaster account through Neynar's managed signers, through the hosted page's
// routes against a local fake of Neynar answering its documented shapes:
//   https://docs.neynar.com/docs/write-to-farcaster-with-neynar-managed-signers (the flow)
//   https://docs.neynar.com/reference/create-signer (signer_uuid, public_key, status generated)
//   https://docs.neynar.com/reference/register-signed-key (signer_uuid, app_fid, deadline,
//     signature → signer_approval_url, status pending_approval)
//   https://docs.neynar.com/reference/lookup-signer (status pending_approval | approved | revoked, fid)
//   https://docs.neynar.com/reference/fetch-bulk-users (users[]: username, display_name, pfp_url)
// The signature is checked as Farcaster's validator would: the app's custody address must be
// recovered from it (https://docs.farcaster.xyz/reference/contracts/reference/signed-key-request-validator).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToken } from '@/server/connections/token-sealing';
import { db } from '@/server/db/client';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { recoverSigner, signedKeyRequestDigest } from '@/server/platforms/farcaster/signed-key-request';
import { useClientLinkApi } from '@/server/testing/client-link-api';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';

const neynar = useFakePlatformApi();
const { api, raw, origin } = useClientLinkApi(() => ({ fetch: neynar.fetch }));
const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/farcaster`, name);
// The first account of the standard test mnemonic, and its published address.
const CUSTODY_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const CUSTODY_ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const SIGNER = '19d0c5fd-9b33-4a48-a0e2-bc7b0555baec';

const VARIABLES = ['CONNECT_BASE_URL', 'CONNECT_SANDBOX', 'NEYNAR_API_KEY', 'NEYNAR_API_BASE_URL', 'FARCASTER_APP_FID', 'FARCASTER_APP_CUSTODY_PRIVATE_KEY'];
const saved: Record<string, string | undefined> = {};
beforeAll(() => {
  for (const k of VARIABLES) saved[k] = process.env[k];
  Object.assign(process.env, {
    CONNECT_BASE_URL: origin(),
    CONNECT_SANDBOX: 'off',
    NEYNAR_API_KEY: 'neynar-key',
    NEYNAR_API_BASE_URL: neynar.baseUrl,
    FARCASTER_APP_FID: '9152',
    FARCASTER_APP_CUSTODY_PRIVATE_KEY: CUSTODY_KEY,
  });
});
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

async function clientLink() {
  const agency = await createWorkspaceWithKey();
  const clientId = (await api('POST', '/workspaces', { key: agency.secret, body: { name: 'Client Co' } })).body.data.id as string;
  const link = await api('POST', `/workspaces/${clientId}/connect-url`, { key: agency.secret, body: {} });
  return { clientId, token: link.body.data.url.split('/').at(-1)! as string };
}

/** The page's button: a session spent on Farcaster; returns the approval link and the browser's cookie. */
async function start(token: string) {
  neynar.on('POST', '/v2/farcaster/signer', { json: f('signer-created') });
  neynar.on('POST', '/v2/farcaster/signer/signed_key', { json: f('signer-pending') });
  const session = (await raw('POST', `/public/connect/${token}/session`)).body.data.session as string;
  const started = await raw('POST', `/public/connect/${token}/authorize`, { body: { session, platform: 'farcaster' } });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return { started: started.body.data, cookie: started.headers.get('set-cookie')!.split(';')[0]! };
}

const check = (token: string, cookie: string | null) => raw('POST', `/public/connect/${token}/approval`, { headers: cookie ? { cookie } : {} });

describe('Farcaster: approved in the Farcaster app', () => {
  it('offers the channel as an approval once Neynar and the app account are set', async () => {
    const { token } = await clientLink();
    const page = await raw('GET', `/public/connect/${token}`);
    const channel = page.body.data.channels.find((c: { platform: string }) => c.platform === 'farcaster');
    expect(channel).toMatchObject({ configured: true, connectWith: 'approval', fields: [], instructions: expect.stringContaining('Farcaster app') });
  });

  it('registers a signed key request the app’s custody key signed, waits while it is pending, then connects the account with the signer sealed', async () => {
    const { clientId, token } = await clientLink();
    const before = Math.floor(Date.now() / 1000);
    const { started, cookie } = await start(token);
    expect(started).toMatchObject({ kind: 'approve', approvalUrl: f('signer-pending').signer_approval_url });

    const [created] = neynar.calls('POST', '/v2/farcaster/signer');
    expect(created!.headers['x-api-key']).toBe('neynar-key');
    const registered = neynar.calls('POST', '/v2/farcaster/signer/signed_key')[0]!.json();
    expect(registered).toMatchObject({ signer_uuid: SIGNER, app_fid: 9152 });
    // The request ends with the connect session (15 minutes), not a day later.
    expect(registered.deadline).toBeGreaterThan(before);
    expect(registered.deadline).toBeLessThanOrEqual(before + 15 * 60 + 1);
    const digest = signedKeyRequestDigest({ requestFid: 9152, key: f('signer-created').public_key, deadline: registered.deadline });
    expect(recoverSigner(digest, registered.signature)).toBe(CUSTODY_ADDRESS);

    neynar.on('GET', '/v2/farcaster/signer', { json: f('signer-pending') });
    const waiting = await check(token, cookie);
    expect(waiting.status).toBe(200);
    expect(waiting.body.data).toMatchObject({ status: 'pending', connection: null });
    expect(neynar.calls('GET', '/v2/farcaster/signer')[0]!.query.get('signer_uuid')).toBe(SIGNER);
    expect(await db.connection.count({ where: { workspaceId: clientId } })).toBe(0);

    neynar.on('GET', '/v2/farcaster/signer', { json: f('signer-approved') });
    neynar.on('GET', '/v2/farcaster/user/bulk', { json: f('user-bulk') });
    const done = await check(token, cookie);
    expect(done.body.data).toMatchObject({
      status: 'completed',
      connection: { platform: 'farcaster', accountName: '@heraldcoffee', displayName: 'Herald Coffee' },
    });
    expect(done.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect(neynar.calls('GET', '/v2/farcaster/user/bulk')[0]!.query.get('fids')).toBe('194');

    const row = await db.connection.findFirstOrThrow({ where: { workspaceId: clientId, platform: 'farcaster' } });
    expect(row).toMatchObject({ provider: 'live', externalId: '194', avatarUrl: 'https://i.imgur.com/heraldcoffee.png' });
    expect(row.platformData).toEqual({ fid: 194, username: 'heraldcoffee' });
    expect(row.accessToken).not.toBe(SIGNER);
    expect(openToken(row.accessToken)).toBe(SIGNER);

    // A check after it is done reads the outcome; nothing is connected twice.
    const again = await check(token, cookie);
    expect(again.body.data.status).toBe('completed');
    expect(await db.connection.count({ where: { workspaceId: clientId } })).toBe(1);
  });

  it('says so, in words, when the request was declined in Farcaster', async () => {
    const { clientId, token } = await clientLink();
    const { cookie } = await start(token);
    neynar.on('GET', '/v2/farcaster/signer', { json: f('signer-revoked') });
    const refused = await check(token, cookie);
    expect(refused.body.data).toMatchObject({ status: 'failed', message: expect.stringContaining('declined or withdrawn') });
    expect(await db.connection.count({ where: { workspaceId: clientId } })).toBe(0);
  });

  it('gives up when the session ran out before the approval, without asking Neynar', async () => {
    const { clientId, token } = await clientLink();
    const { started, cookie } = await start(token);
    await db.connectSession.update({ where: { id: started.attempt }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const late = await check(token, cookie);
    expect(late.body.data).toMatchObject({ status: 'failed', message: expect.stringContaining('not approved within the 15-minute') });
    expect(neynar.calls('GET', '/v2/farcaster/signer')).toHaveLength(0);
    expect(await db.connection.count({ where: { workspaceId: clientId } })).toBe(0);
  });

  it('answers Neynar’s refusal to start next to the channel, and checks only from the browser that started', async () => {
    const { token } = await clientLink();
    neynar.on('POST', '/v2/farcaster/signer', {
      status: 403,
      json: { code: 'Forbidden', message: 'This API key’s plan does not include managed signers', status: 403 },
    });
    const session = (await raw('POST', `/public/connect/${token}/session`)).body.data.session as string;
    const refused = await raw('POST', `/public/connect/${token}/authorize`, { body: { session, platform: 'farcaster' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('does not include managed signers') });

    const elsewhere = await check(token, null);
    expect(elsewhere.status).toBeGreaterThanOrEqual(400);
    expect(elsewhere.body.error.code).toBe('CONNECT_SESSION_INVALID');
  });
});
