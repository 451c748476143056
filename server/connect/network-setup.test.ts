// The operator's view of the networks: what each needs, what to register (from the connect
// flow's own URLs and scopes), which variables are set, and the credentials check against
// local fakes of the networks' token endpoints, answering as their documentation says:
//   RFC 6749 §5.2 error responses (Google: https://developers.google.com/identity/protocols/oauth2/web-server#exchange-authorization-code)
//   Slack oauth.v2.access errors: https://docs.slack.dev/reference/methods/oauth.v2.access (invalid_client_id, bad_client_secret, invalid_code)
//   Meta: https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow#confirm (OAuthException, "Error validating client secret.")
//   Neynar: https://docs.neynar.com/reference/fetch-bulk-users (the app account's custody_address)
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { createCaller } from '@/server/root';
import { createKey, createWorkspace } from '@/server/testing/fixtures';
import { createRequestContext } from '@/server/trpc/context';
import { PLATFORMS } from '@/server/shared/platforms';
import { checkNetworkCredentials, networkSetup, networksOverview } from './network-setup';

const platform = useFakePlatformApi();
const BASE = 'https://herald.example';

beforeEach(() => {
  vi.stubEnv('CONNECT_BASE_URL', BASE);
  vi.stubEnv('CONNECT_SANDBOX', 'on');
  for (const name of [
    'GOOGLE_CLIENT_ID',
    'GOOGLE_CLIENT_SECRET',
    'LINKEDIN_CLIENT_ID',
    'LINKEDIN_CLIENT_SECRET',
    'SLACK_CLIENT_ID',
    'SLACK_CLIENT_SECRET',
    'TELEGRAM_BOT_TOKEN',
    'NEYNAR_API_KEY',
    'FARCASTER_APP_FID',
    'FARCASTER_APP_CUSTODY_PRIVATE_KEY',
  ])
    vi.stubEnv(name, '');
});
afterEach(() => vi.unstubAllEnvs());

describe('the networks overview', () => {
  it('lists every network; Bluesky and Mastodon take real accounts with nothing set, the others say what to set', () => {
    const overview = networksOverview({ demoAccounts: true });
    expect(overview.networks.map((n) => n.platform)).toEqual([...PLATFORMS]);
    expect(overview).toMatchObject({ baseUrl: BASE, publicBaseUrl: true, demoAccounts: { deployment: true, workspace: true } });
    const by = Object.fromEntries(overview.networks.map((n) => [n.platform, n]));
    expect(by.bluesky).toMatchObject({ needs: 'nothing', realAccounts: 'credentials', redirectUri: null, variables: [] });
    expect(by.mastodon).toMatchObject({ needs: 'nothing', realAccounts: 'oauth', redirectUri: null });
    expect(by.mastodon!.scopes).toEqual(expect.arrayContaining(['write:statuses']));
    expect(by.telegram).toMatchObject({ needs: 'bot', realAccounts: 'unavailable', variables: [{ name: 'TELEGRAM_BOT_TOKEN', set: false, optional: false }] });
    expect(by.linkedin).toMatchObject({
      needs: 'app',
      realAccounts: 'unavailable',
      redirectUri: `${BASE}/connect/callback/linkedin`,
      scopes: ['openid', 'profile', 'w_member_social'],
      variables: [
        { name: 'LINKEDIN_CLIENT_ID', set: false, optional: false },
        { name: 'LINKEDIN_CLIENT_SECRET', set: false, optional: false },
      ],
      console: 'https://www.linkedin.com/developers/apps',
    });
    expect(by.slack!.scopes).toEqual(['incoming-webhook']);
    expect(by.twitter!.variables.find((v) => v.name === 'X_CLIENT_SECRET')?.optional).toBe(true);
    // Farcaster needs the deployment's keys but registers no redirect: clients approve in the Farcaster app.
    expect(by.farcaster).toMatchObject({ needs: 'app', realAccounts: 'unavailable', redirectUri: null, scopes: [], console: 'https://dev.neynar.com' });
    // Every network that needs an app names its console and its variables, and an OAuth app its scopes.
    for (const n of overview.networks.filter((x) => x.needs === 'app')) {
      expect(n.console, n.platform).toMatch(/^https:\/\//);
      expect(n.variables.length, n.platform).toBeGreaterThan(0);
      if (n.redirectUri) expect(n.scopes.length, n.platform).toBeGreaterThan(0);
    }
  });

  it('a network turns ready once its variables are set, and says so without showing them', () => {
    vi.stubEnv('LINKEDIN_CLIENT_ID', 'li-app');
    vi.stubEnv('LINKEDIN_CLIENT_SECRET', 'li-secret');
    const linkedin = networkSetup('linkedin');
    expect(linkedin.realAccounts).toBe('oauth');
    expect(linkedin.variables.every((v) => v.set)).toBe(true);
    expect(JSON.stringify(linkedin)).not.toContain('li-secret');
  });

  it('says when the redirect URIs name this machine only, and when a workspace switched demo accounts off', () => {
    vi.stubEnv('CONNECT_BASE_URL', 'http://localhost:3000');
    expect(networksOverview({ demoAccounts: false })).toMatchObject({ publicBaseUrl: false, demoAccounts: { deployment: true, workspace: false } });
  });
});

describe('checking the credentials', () => {
  it('needs nothing for Bluesky, and asks for the variables first where they are missing', async () => {
    expect(await checkNetworkCredentials('bluesky', platform.fetch)).toMatchObject({ outcome: 'nothing_to_check' });
    expect(await checkNetworkCredentials('linkedin', platform.fetch)).toMatchObject({
      outcome: 'not_set',
      message: 'Set LINKEDIN_CLIENT_ID and LINKEDIN_CLIENT_SECRET first.',
    });
    expect(platform.requests).toHaveLength(0);
  });

  it('Google: invalid_grant for the test code means the client is known; invalid_client means it is not', async () => {
    vi.stubEnv('GOOGLE_CLIENT_ID', '1234.apps.googleusercontent.com');
    vi.stubEnv('GOOGLE_CLIENT_SECRET', 'GOCSPX-secret');
    vi.stubEnv('GOOGLE_OAUTH_TOKEN_URL', `${platform.baseUrl}/token`);
    platform.on('POST', '/token', { status: 400, json: { error: 'invalid_grant', error_description: 'Malformed auth code.' } });
    const accepted = await checkNetworkCredentials('youtube', platform.fetch);
    expect(accepted).toMatchObject({ outcome: 'accepted', answer: expect.stringContaining('invalid_grant') });
    const form = Object.fromEntries(platform.calls('POST', '/token')[0]!.form());
    expect(form).toMatchObject({
      grant_type: 'authorization_code',
      client_id: '1234.apps.googleusercontent.com',
      redirect_uri: `${BASE}/connect/callback/youtube`,
    });

    platform.reset();
    platform.on('POST', '/token', { status: 401, json: { error: 'invalid_client', error_description: 'The OAuth client was not found.' } });
    expect(await checkNetworkCredentials('google_business', platform.fetch)).toMatchObject({
      outcome: 'refused',
      answer: expect.stringContaining('The OAuth client was not found.'),
    });
  });

  it('Slack: HTTP 200 with ok false: invalid_code is accepted, bad_client_secret refused', async () => {
    vi.stubEnv('SLACK_CLIENT_ID', '1234.5678');
    vi.stubEnv('SLACK_CLIENT_SECRET', 'slack-secret');
    vi.stubEnv('SLACK_API_BASE_URL', platform.baseUrl);
    platform.on('POST', '/oauth.v2.access', { json: { ok: false, error: 'invalid_code' } });
    expect(await checkNetworkCredentials('slack', platform.fetch)).toMatchObject({ outcome: 'accepted' });
    platform.reset();
    platform.on('POST', '/oauth.v2.access', { json: { ok: false, error: 'bad_client_secret' } });
    expect(await checkNetworkCredentials('slack', platform.fetch)).toMatchObject({ outcome: 'refused', answer: '{"ok":false,"error":"bad_client_secret"}' });
  });

  it('Farcaster: the Neynar key reads the app account, whose custody address must be the custody key’s', async () => {
    vi.stubEnv('NEYNAR_API_KEY', 'neynar-key');
    vi.stubEnv('NEYNAR_API_BASE_URL', platform.baseUrl);
    vi.stubEnv('FARCASTER_APP_FID', '9152');
    // The first account of the standard test mnemonic, and its published address.
    vi.stubEnv('FARCASTER_APP_CUSTODY_PRIVATE_KEY', 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
    expect(networkSetup('farcaster').realAccounts).toBe('approval');
    const app = (custody: string) => ({ json: { users: [{ object: 'user', fid: 9152, username: 'herald', custody_address: custody }] } });
    platform.on('GET', '/v2/farcaster/user/bulk', app('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'));
    expect(await checkNetworkCredentials('farcaster', platform.fetch)).toMatchObject({ outcome: 'accepted' });
    const [read] = platform.calls('GET', '/v2/farcaster/user/bulk');
    expect(read!.headers['x-api-key']).toBe('neynar-key');
    expect(read!.query.get('fids')).toBe('9152');
    platform.on('GET', '/v2/farcaster/user/bulk', app('0x6b0bda3f2ffed5efc83fa8c024acff1dd45793f1'));
    expect(await checkNetworkCredentials('farcaster', platform.fetch)).toMatchObject({
      outcome: 'refused',
      message: expect.stringContaining('custody address'),
    });
    platform.on('GET', '/v2/farcaster/user/bulk', { status: 401, json: { code: 'Unauthorized', message: 'Invalid API key' } });
    expect(await checkNetworkCredentials('farcaster', platform.fetch)).toMatchObject({ outcome: 'refused', answer: 'Invalid API key' });
  });

  it('says when the network cannot be reached', async () => {
    vi.stubEnv('GOOGLE_CLIENT_ID', '1234.apps.googleusercontent.com');
    vi.stubEnv('GOOGLE_CLIENT_SECRET', 'GOCSPX-secret');
    vi.stubEnv('GOOGLE_OAUTH_TOKEN_URL', `${platform.baseUrl}/token`);
    const failing = () => Promise.reject(new Error('connect ECONNREFUSED'));
    expect(await checkNetworkCredentials('youtube', failing)).toMatchObject({ outcome: 'unreachable' });
  });
});

describe('who sees the Networks page', () => {
  async function member(workspaceId: string, role: string, email = `${role}-${crypto.randomUUID()}@example.com`) {
    const user = await db.user.create({ data: { email, name: role } });
    await db.membership.create({ data: { userId: user.id, workspaceId, role } });
    return user;
  }
  const callerFor = (userId: string) => createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(), staffUserId: userId }));

  it('the owners of the first agency and HERALD_OPERATORS; not other members, other agencies or API keys', async () => {
    // Each test file has its own database: the first workspace made here is the first agency.
    const first = await createWorkspace({ name: 'First Agency' });
    const owner = await member(first.id, 'owner');
    const admin = await member(first.id, 'admin');
    const later = await createWorkspace({ name: 'Later Agency' });
    const otherOwner = await member(later.id, 'owner');
    const named = await member(later.id, 'member', 'ops@herald.example');

    expect((await callerFor(owner.id).networks.overview()).data.networks).toHaveLength(PLATFORMS.length);
    expect((await callerFor(owner.id).app.shell()).data.user.operator).toBe(true);
    for (const user of [admin, otherOwner, named]) {
      await expect(callerFor(user.id).networks.overview()).rejects.toThrow(/Only the operator/);
      expect((await callerFor(user.id).app.shell()).data.user.operator).toBe(false);
    }
    await expect(callerFor(otherOwner.id).networks.check({ platform: 'bluesky' })).rejects.toThrow(/Only the operator/);

    vi.stubEnv('HERALD_OPERATORS', 'someone@else.example, OPS@herald.example');
    expect((await callerFor(named.id).networks.overview()).data.networks).toHaveLength(PLATFORMS.length);
    expect((await callerFor(named.id).networks.check({ platform: 'bluesky' })).data.outcome).toBe('nothing_to_check');

    const { secret } = await createKey(first.id);
    const byKey = createCaller(createRequestContext({ transport: 'trpc', headers: new Headers({ authorization: `Bearer ${secret}` }) }));
    await expect(byKey.networks.overview()).rejects.toThrow(/Only the operator/);
  });
});
