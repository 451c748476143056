// Connecting real accounts end to end: the hosted page's session, the platform's consent page,
// the callback, the code exchange and the account read, against a local HTTPS stand-in of
// LinkedIn's and Meta's OAuth endpoints (trusted through its certificate; 127.0.0.1 allowed
// through OUTBOUND_ALLOW_HOSTS, as a deployment would for a proxy).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openToken } from '@/server/connections/token-sealing';
import { db } from '@/server/db/client';
import { createOutboundClient, type OutboundClient } from '@/server/outbound';
import { useClientLinkApi } from '@/server/testing/client-link-api';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { STAND_IN_APPS, startOAuthStandIn, type StandIn } from './testing/oauth-stand-in';

let standIn: StandIn;
let outbound: OutboundClient;
const { api, raw, origin } = useClientLinkApi(() => ({ fetch: (url, init) => outbound.fetch(url, init) }));

beforeAll(async () => {
  standIn = await startOAuthStandIn();
  outbound = createOutboundClient({ ca: standIn.cert });
  Object.assign(process.env, {
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    CONNECT_BASE_URL: origin(),
    CONNECT_SANDBOX: 'off',
    LINKEDIN_CLIENT_ID: STAND_IN_APPS.linkedin.clientId,
    LINKEDIN_CLIENT_SECRET: STAND_IN_APPS.linkedin.clientSecret,
    LINKEDIN_OAUTH_BASE_URL: `${standIn.origin}/oauth/v2`,
    LINKEDIN_API_BASE_URL: standIn.origin,
    META_APP_ID: STAND_IN_APPS.meta.clientId,
    META_APP_SECRET: STAND_IN_APPS.meta.clientSecret,
    META_OAUTH_DIALOG_URL: `${standIn.origin}/v25.0/dialog/oauth`,
    FACEBOOK_GRAPH_BASE_URL: `${standIn.origin}/v25.0`,
    INSTAGRAM_GRAPH_BASE_URL: `${standIn.origin}/v25.0`,
  });
});
afterAll(async () => {
  await outbound?.close();
  await standIn?.close();
});
beforeEach(() => {
  standIn.consent = 'grant';
  standIn.pages = [];
  standIn.requests.length = 0;
});

async function clientLink() {
  const agency = await createWorkspaceWithKey();
  const clientId = (await api('POST', '/workspaces', { key: agency.secret, body: { name: 'Client Co' } })).body.data.id;
  const link = await api('POST', `/workspaces/${clientId}/connect-url`, { key: agency.secret, body: {} });
  return { clientId, token: link.body.data.url.split('/').at(-1)! };
}

/** The page's button: a session, then the authorize call; returns what the browser holds. */
async function start(token: string, platform: string) {
  const session = (await raw('POST', `/public/connect/${token}/session`)).body.data.session as string;
  const started = await raw('POST', `/public/connect/${token}/authorize`, { body: { session, platform } });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  expect(started.body.data.kind).toBe('redirect');
  const setCookie = started.headers.get('set-cookie')!;
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).toMatch(/SameSite=Lax/);
  return {
    session,
    authorizeUrl: new URL(started.body.data.authorizeUrl as string),
    cookie: setCookie.split(';')[0]!,
    attempt: started.body.data.attempt as string,
  };
}

/** The browser at the platform's consent page: follows its redirect back to Herald's callback. */
async function consent(authorizeUrl: URL): Promise<URL> {
  const res = await outbound.fetch(authorizeUrl);
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

/** The browser arriving at the callback; returns where Herald sends it. */
async function callback(url: URL, cookie: string | null) {
  const res = await raw('GET', `${url.pathname}${url.search}`, { headers: cookie ? { cookie } : {} });
  return { status: res.status, location: res.headers.get('location'), body: res.body };
}

describe('LinkedIn (authorization code, confidential client)', () => {
  it('connects the member: state bound to the session, code exchanged once, tokens sealed, account read', async () => {
    const { clientId, token } = await clientLink();
    const flow = await start(token, 'linkedin');
    expect(flow.authorizeUrl.origin + flow.authorizeUrl.pathname).toBe(`${standIn.origin}/oauth/v2/authorization`);
    expect(Object.fromEntries(flow.authorizeUrl.searchParams)).toEqual({
      response_type: 'code',
      client_id: STAND_IN_APPS.linkedin.clientId,
      redirect_uri: `${origin()}/connect/callback/linkedin`,
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      scope: 'openid profile w_member_social',
    });
    const session = await db.connectSession.findFirstOrThrow({ where: { id: flow.attempt } });
    expect(session.stateHash).toBe(createHash('sha256').update(flow.authorizeUrl.searchParams.get('state')!).digest('hex'));

    const back = await consent(flow.authorizeUrl);
    const done = await callback(back, flow.cookie);
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${origin()}/connect/${token}?attempt=${flow.attempt}`);

    const exchange = standIn.requests.find((r) => r.path === '/oauth/v2/accessToken')!;
    expect(Object.fromEntries(exchange.form)).toEqual({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code'),
      redirect_uri: `${origin()}/connect/callback/linkedin`,
      client_id: STAND_IN_APPS.linkedin.clientId,
      client_secret: STAND_IN_APPS.linkedin.clientSecret,
    });
    const [connection] = await db.connection.findMany({ where: { workspaceId: clientId } });
    expect(connection).toMatchObject({
      platform: 'linkedin',
      provider: 'live',
      externalId: standIn.member.sub,
      displayName: 'Dana Client',
      accountName: 'dana@client.test',
      avatarUrl: 'https://media.licdn.test/dana.jpg',
      status: 'active',
      scopes: 'email openid profile w_member_social',
    });
    const issued = standIn.requests.find((r) => r.path === '/v2/userinfo')!.authorization!.slice('Bearer '.length);
    expect(connection!.accessToken).not.toContain(issued);
    expect(openToken(connection!.accessToken)).toBe(issued);
    expect(Math.abs(connection!.tokenExpiresAt!.getTime() - (Date.now() + 5_184_000_000))).toBeLessThan(60_000);
    expect((await db.connectSession.findUniqueOrThrow({ where: { id: flow.attempt } })).status).toBe('completed');
    expect((await raw('GET', `/public/connect/${token}`)).body.data.connections).toEqual([
      {
        id: connection!.id,
        platform: 'linkedin',
        accountName: 'dana@client.test',
        displayName: 'Dana Client',
        avatarUrl: 'https://media.licdn.test/dana.jpg',
        status: 'active',
      },
    ]);

    // A replayed callback (same code and state) never reaches the token endpoint again.
    const exchanges = standIn.requests.filter((r) => r.path === '/oauth/v2/accessToken').length;
    const replay = await callback(back, flow.cookie);
    expect(replay.location).toBe(`${origin()}/connect/${token}?attempt=${flow.attempt}`);
    expect(standIn.requests.filter((r) => r.path === '/oauth/v2/accessToken').length).toBe(exchanges);
    expect(await db.connection.count({ where: { workspaceId: clientId } })).toBe(1);
  });

  it('a reconnect of the same member updates the row in place with the new token', async () => {
    const { clientId, token } = await clientLink();
    const first = await start(token, 'linkedin');
    await callback(await consent(first.authorizeUrl), first.cookie);
    const before = await db.connection.findFirstOrThrow({ where: { workspaceId: clientId } });
    await db.connection.update({ where: { id: before.id }, data: { status: 'inactive', lastError: 'token expired' } });
    standIn.member.name = 'Dana C. Client';

    const second = await start(token, 'linkedin');
    await callback(await consent(second.authorizeUrl), second.cookie);
    const after = await db.connection.findMany({ where: { workspaceId: clientId } });
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: before.id, status: 'active', lastError: null, displayName: 'Dana C. Client' });
    expect(openToken(after[0]!.accessToken)).not.toBe(openToken(before.accessToken));
    standIn.member.name = 'Dana Client';
  });

  it('refuses a state that does not match the session, and a callback from another browser', async () => {
    const { clientId, token } = await clientLink();
    const flow = await start(token, 'linkedin');
    const back = await consent(flow.authorizeUrl);
    const forged = new URL(back);
    forged.searchParams.set('state', 'A'.repeat(43));
    expect((await callback(forged, flow.cookie)).location).toBe(`${origin()}/connect/${token}?error=state`);
    // Another browser's session with this browser's state.
    const other = await start(token, 'linkedin');
    expect((await callback(back, other.cookie)).location).toBe(`${origin()}/connect/${token}?error=state`);
    const noCookie = await callback(back, null);
    expect(noCookie.status).toBe(400);
    expect(noCookie.body).toContain('did not start in this browser');
    expect(standIn.requests.filter((r) => r.path === '/oauth/v2/accessToken')).toHaveLength(0);
    // The real callback still works afterwards: nothing above spent the session.
    expect((await callback(back, flow.cookie)).location).toBe(`${origin()}/connect/${token}?attempt=${flow.attempt}`);
    expect(await db.connection.count({ where: { workspaceId: clientId } })).toBe(1);
  });

  it('brings a denied consent back to the page as a readable message', async () => {
    const { clientId, token } = await clientLink();
    standIn.consent = 'deny';
    const flow = await start(token, 'linkedin');
    const back = await consent(flow.authorizeUrl);
    expect(back.searchParams.get('error')).toBe('user_cancelled_authorize');
    expect((await callback(back, flow.cookie)).location).toBe(`${origin()}/connect/${token}?attempt=${flow.attempt}`);
    const session = await db.connectSession.findUniqueOrThrow({ where: { id: flow.attempt } });
    expect(session).toMatchObject({ status: 'failed', error: 'You cancelled the connection on LinkedIn. Nothing was connected.' });
    expect(await db.connection.count({ where: { workspaceId: clientId } })).toBe(0);
  });

  it('reports a code the platform refuses (used or expired) as a readable message', async () => {
    const { clientId, token } = await clientLink();
    const first = await start(token, 'linkedin');
    const back = await consent(first.authorizeUrl);
    await callback(back, first.cookie);
    // A second attempt that somehow carries the spent code: LinkedIn refuses it.
    const second = await start(token, 'linkedin');
    const reused = new URL(back);
    reused.searchParams.set('state', second.authorizeUrl.searchParams.get('state')!);
    await callback(reused, second.cookie);
    const session = await db.connectSession.findUniqueOrThrow({ where: { id: second.attempt } });
    expect(session.status).toBe('failed');
    expect(session.error).toMatch(/^LinkedIn did not accept the sign-in \(Unable to retrieve access token: .*\)\. Please try again\.$/);
    expect(await db.connection.count({ where: { workspaceId: clientId } })).toBe(1);
  });
});

describe('Facebook and Instagram (Meta, PKCE, the client picks a Page or business account)', () => {
  it('lists the Pages after consent and connects the one the client chooses, with its Page token sealed', async () => {
    standIn.pages = [
      { id: '101', name: 'Client Bakery' },
      { id: '202', name: 'Client Cafe' },
    ];
    const { clientId, token } = await clientLink();
    const flow = await start(token, 'facebook');
    const params = Object.fromEntries(flow.authorizeUrl.searchParams);
    expect(params).toMatchObject({
      client_id: STAND_IN_APPS.meta.clientId,
      redirect_uri: `${origin()}/connect/callback/facebook`,
      response_type: 'code',
      scope: 'pages_show_list,pages_read_engagement,pages_manage_posts,pages_read_user_content,pages_manage_engagement,pages_messaging',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const back = await consent(flow.authorizeUrl);
    expect((await callback(back, flow.cookie)).location).toBe(`${origin()}/connect/${token}?attempt=${flow.attempt}`);
    // The verifier behind the challenge went with the exchange (the stand-in checks it).
    expect(standIn.requests.find((r) => r.path === '/v25.0/oauth/access_token' && r.query.get('code'))!.query.get('code_verifier')).toMatch(
      /^[A-Za-z0-9_-]{43}$/,
    );
    expect((await db.connectSession.findUniqueOrThrow({ where: { id: flow.attempt } })).status).toBe('choosing');
    expect(await db.connection.count({ where: { workspaceId: clientId } })).toBe(0);

    // Choosing needs the browser's cookie.
    const without = await raw('POST', `/public/connect/${token}/choose`, { body: { accountId: '202' } });
    expect(without.status).toBe(401);
    expect(without.body.error.code).toBe('CONNECT_SESSION_INVALID');
    const notOffered = await raw('POST', `/public/connect/${token}/choose`, { body: { accountId: '999' }, headers: { cookie: flow.cookie } });
    expect(notOffered.status).toBe(400);
    const chosen = await raw('POST', `/public/connect/${token}/choose`, { body: { accountId: '202' }, headers: { cookie: flow.cookie } });
    expect(chosen.status).toBe(200);
    const [page] = await db.connection.findMany({ where: { workspaceId: clientId } });
    expect(page).toMatchObject({
      platform: 'facebook',
      externalId: '202',
      displayName: 'Client Cafe',
      avatarUrl: 'https://scontent.test/202.jpg',
      tokenExpiresAt: null,
    });
    expect(page!.accessToken).not.toContain('page-token-202');
    expect(openToken(page!.accessToken)).toBe('page-token-202');
    expect(page!.scopes).toContain('pages_manage_posts');
    // Once only.
    expect((await raw('POST', `/public/connect/${token}/choose`, { body: { accountId: '101' }, headers: { cookie: flow.cookie } })).status).toBe(401);
  });

  it('offers Instagram business accounts linked to the Pages, connects the only one at once, and explains when there is none', async () => {
    standIn.pages = [
      { id: '303', name: 'Studio Page', instagram: { id: '17841400000000001', username: 'studio.client', name: 'Studio' } },
      { id: '505', name: 'Shop Page', instagram: { id: '17841400000000002', username: 'shop.client', name: 'Shop' } },
      { id: '404', name: 'No IG' },
    ];
    const { clientId, token } = await clientLink();
    const flow = await start(token, 'instagram');
    await callback(await consent(flow.authorizeUrl), flow.cookie);
    const chosen = await raw('POST', `/public/connect/${token}/choose`, { body: { accountId: '17841400000000001' }, headers: { cookie: flow.cookie } });
    expect(chosen.status).toBe(200);
    expect(await db.connection.findFirstOrThrow({ where: { workspaceId: clientId } })).toMatchObject({
      platform: 'instagram',
      externalId: '17841400000000001',
      accountName: 'studio.client',
      displayName: 'Studio',
      // The linked Page, whose conversations with platform=instagram are the account's direct messages.
      platformData: { pageId: '303' },
    });

    // One account offered: nothing to choose, it is connected straight from the callback.
    standIn.pages = [{ id: '505', name: 'Shop Page', instagram: { id: '17841400000000002', username: 'shop.client', name: 'Shop' } }];
    const only = await start(token, 'instagram');
    await callback(await consent(only.authorizeUrl), only.cookie);
    expect(await db.connectSession.findUniqueOrThrow({ where: { id: only.attempt } })).toMatchObject({ status: 'completed', choicesSealed: null });
    expect(await db.connection.count({ where: { workspaceId: clientId, platform: 'instagram' } })).toBe(2);

    standIn.pages = [{ id: '404', name: 'No IG' }];
    const none = await start(token, 'instagram');
    await callback(await consent(none.authorizeUrl), none.cookie);
    expect((await db.connectSession.findUniqueOrThrow({ where: { id: none.attempt } })).error).toMatch(/No Instagram business or creator account/);
  });

  it('reports a denied consent and a reused code in words', async () => {
    const { token } = await clientLink();
    standIn.consent = 'deny';
    const denied = await start(token, 'facebook');
    await callback(await consent(denied.authorizeUrl), denied.cookie);
    expect((await db.connectSession.findUniqueOrThrow({ where: { id: denied.attempt } })).error).toBe(
      'You cancelled the connection on Facebook. Nothing was connected.',
    );

    standIn.consent = 'grant';
    standIn.pages = [{ id: '101', name: 'Client Bakery' }];
    const first = await start(token, 'facebook');
    const back = await consent(first.authorizeUrl);
    await callback(back, first.cookie);
    const second = await start(token, 'facebook');
    const reused = new URL(back);
    reused.searchParams.set('state', second.authorizeUrl.searchParams.get('state')!);
    await callback(reused, second.cookie);
    expect((await db.connectSession.findUniqueOrThrow({ where: { id: second.attempt } })).error).toMatch(/Facebook did not accept the sign-in/);
  });
});
