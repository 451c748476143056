// The channels that ask before connecting, through the hosted page's routes against a local
// fake of each network: Bluesky with an app password on the client's own server
// (https://docs.bsky.app/docs/api/com-atproto-server-create-session), Mastodon on the client's
// own instance — app registered there once and reused (https://docs.joinmastodon.org/methods/apps/#create),
// OAuth with PKCE (https://docs.joinmastodon.org/methods/oauth/) — and the account choice asked
// only when a grant offers several accounts.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToken } from '@/server/connections/token-sealing';
import { db } from '@/server/db/client';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { useClientLinkApi } from '@/server/testing/client-link-api';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';

const platform = useFakePlatformApi();
const { api, raw, origin } = useClientLinkApi(() => ({ fetch: platform.fetch }));
const bluesky = (name: string) => fixture(`${import.meta.dirname}/../platforms/bluesky`, name);
const mastodon = (name: string) => fixture(`${import.meta.dirname}/../platforms/mastodon`, name);

const saved: Record<string, string | undefined> = {};
beforeAll(() => {
  for (const k of ['CONNECT_BASE_URL', 'CONNECT_SANDBOX']) saved[k] = process.env[k];
  Object.assign(process.env, { CONNECT_BASE_URL: origin(), CONNECT_SANDBOX: 'off' });
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

async function authorize(token: string, platformId: string, values?: Record<string, string>) {
  const session = (await raw('POST', `/public/connect/${token}/session`)).body.data.session as string;
  return raw('POST', `/public/connect/${token}/authorize`, { body: { session, platform: platformId, ...(values ? { values } : {}) } });
}

describe('Bluesky: an app password, typed on the page', () => {
  it('connects the account on the server the client names, keeping the session tokens and never the password', async () => {
    const { clientId, token } = await clientLink();
    const session = bluesky('create-session');
    session.didDoc.service[0].serviceEndpoint = platform.baseUrl;
    platform.on('POST', '/xrpc/com.atproto.server.createSession', { json: session });
    platform.on('GET', '/xrpc/app.bsky.actor.getProfile', { json: bluesky('get-profile') });

    const page = await raw('GET', `/public/connect/${token}`);
    const channel = page.body.data.channels.find((c: { platform: string }) => c.platform === 'bluesky');
    expect(channel).toMatchObject({ configured: true, connectWith: 'credentials' });
    expect(channel.fields.map((f: { name: string }) => f.name)).toEqual(['identifier', 'password', 'server']);

    const missing = await authorize(token, 'bluesky', { identifier: 'heraldcoffee.bsky.social' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'values.password' });
    expect(platform.calls('POST', '/xrpc/com.atproto.server.createSession')).toHaveLength(0);

    const done = await authorize(token, 'bluesky', { identifier: 'heraldcoffee.bsky.social', password: 'abcd-efgh-ijkl-mnop', server: platform.baseUrl });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toMatchObject({ kind: 'connected', connection: { platform: 'bluesky', accountName: '@heraldcoffee.bsky.social' } });
    expect(platform.calls('POST', '/xrpc/com.atproto.server.createSession')[0]!.json()).toEqual({
      identifier: 'heraldcoffee.bsky.social',
      password: 'abcd-efgh-ijkl-mnop',
    });

    const row = await db.connection.findFirstOrThrow({ where: { workspaceId: clientId, platform: 'bluesky' } });
    expect(row).toMatchObject({ provider: 'live', externalId: 'did:plc:z72i7hdynmk6r22z27h6tvur' });
    expect(row.platformData).toMatchObject({ pds: platform.baseUrl, handle: 'heraldcoffee.bsky.social' });
    expect(row.accessToken).not.toBe(session.accessJwt); // sealed
    expect(openToken(row.accessToken)).toBe(session.accessJwt);
    expect(openToken(row.refreshToken)).toBe(session.refreshJwt);
    expect(JSON.stringify(row)).not.toContain('abcd-efgh-ijkl-mnop');
  });

  it('answers a refused password next to the fields, in words, and keeps the link usable', async () => {
    const { token } = await clientLink();
    platform.on('POST', '/xrpc/com.atproto.server.createSession', { status: 401, json: bluesky('error-auth') });
    const refused = await authorize(token, 'bluesky', { identifier: 'heraldcoffee.bsky.social', password: 'wrong', server: platform.baseUrl });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'values' });
    expect(refused.body.error.message).toMatch(/Bluesky/);
    // A new attempt gets a new session.
    expect((await raw('POST', `/public/connect/${token}/session`)).status).toBe(200);
  });
});

describe('Mastodon: the client’s own server', () => {
  it('registers Herald on the server once, runs OAuth with PKCE there, and stores the server with the account', async () => {
    const { clientId, token } = await clientLink();
    platform.on('POST', '/api/v1/apps', { json: mastodon('app-registered') });
    platform.on('POST', '/oauth/token', { json: mastodon('token') });
    platform.on('GET', '/api/v1/accounts/verify_credentials', { json: mastodon('verify-credentials') });
    platform.on('GET', '/api/v2/instance', { json: mastodon('instance') });

    const refused = await authorize(token, 'mastodon', { instance: 'http://insecure.example' });
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'values.instance' });

    const started = await authorize(token, 'mastodon', { instance: platform.baseUrl });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const authorizeUrl = new URL(started.body.data.authorizeUrl);
    expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${platform.baseUrl}/oauth/authorize`);
    expect(authorizeUrl.searchParams.get('client_id')).toBe(mastodon('app-registered').client_id);
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(`${origin()}/connect/callback/mastodon`);
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    const app = await db.instanceApp.findFirstOrThrow({ where: { platform: 'mastodon', instanceUrl: platform.baseUrl } });
    expect(app.appSealed).not.toContain(mastodon('app-registered').client_secret);

    // The browser comes back from the server's consent page with a code.
    const cookie = started.headers.get('set-cookie')!.split(';')[0]!;
    const state = authorizeUrl.searchParams.get('state')!;
    const back = await raw('GET', `/connect/callback/mastodon?code=c0de&state=${state}`, { headers: { cookie } });
    expect(back.status).toBe(303);
    const exchange = platform.calls('POST', '/oauth/token')[0]!.form();
    expect(exchange.get('client_id')).toBe(mastodon('app-registered').client_id);
    expect(exchange.get('client_secret')).toBe(mastodon('app-registered').client_secret);
    expect(createHash('sha256').update(exchange.get('code_verifier')!).digest('base64url')).toBe(authorizeUrl.searchParams.get('code_challenge'));

    const row = await db.connection.findFirstOrThrow({ where: { workspaceId: clientId, platform: 'mastodon' } });
    expect(row.platformData).toMatchObject({ instanceUrl: platform.baseUrl, maxChars: mastodon('instance').configuration.statuses.max_characters });
    expect(openToken(row.accessToken)).toBe(mastodon('token').access_token);

    // A second client on the same server reuses the app: no second registration.
    const again = await authorize((await clientLink()).token, 'mastodon', { instance: platform.baseUrl.replace('https://', '') });
    expect(again.status).toBe(200);
    expect(platform.calls('POST', '/api/v1/apps')).toHaveLength(1);
  });
});
