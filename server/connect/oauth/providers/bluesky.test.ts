// Connecting a Bluesky account with an app password: com.atproto.server.createSession
// (https://docs.bsky.app/docs/api/com-atproto-server-create-session) and app.bsky.actor.getProfile
// (https://docs.bsky.app/docs/api/app-bsky-actor-get-profile), against a local fake.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { blueskyCredentials } from './bluesky';

const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/bluesky`, name);
const platform = useFakePlatformApi();
afterEach(() => vi.unstubAllEnvs());

function session(pds: string) {
  const body = f('create-session');
  body.didDoc.service[0].serviceEndpoint = pds;
  return body;
}

describe('Bluesky', () => {
  it('signs in at the default server and keeps the session, the DID document’s PDS and no password', async () => {
    vi.stubEnv('BLUESKY_SERVICE_URL', platform.baseUrl);
    platform.on('POST', '/xrpc/com.atproto.server.createSession', { json: session(platform.baseUrl) });
    platform.on('GET', '/xrpc/app.bsky.actor.getProfile', { json: f('get-profile') });
    const [account] = await blueskyCredentials.connect(platform.fetch, {
      identifier: '@heraldcoffee.bsky.social',
      password: 'abcd-efgh-ijkl-mnop',
      server: '',
    });
    expect(account).toEqual({
      externalId: 'did:plc:z72i7hdynmk6r22z27h6tvur',
      accountName: '@heraldcoffee.bsky.social',
      displayName: 'Herald Coffee',
      avatarUrl: f('get-profile').avatar,
      accessToken: f('create-session').accessJwt,
      refreshToken: f('create-session').refreshJwt,
      expiresAt: new Date(4102444800_000),
      scopes: null,
      platformData: { did: 'did:plc:z72i7hdynmk6r22z27h6tvur', handle: 'heraldcoffee.bsky.social', pds: platform.baseUrl },
    });
    expect(JSON.stringify(account)).not.toContain('abcd-efgh-ijkl-mnop');
    expect(platform.calls('POST', '/xrpc/com.atproto.server.createSession')[0]!.json()).toEqual({
      identifier: 'heraldcoffee.bsky.social',
      password: 'abcd-efgh-ijkl-mnop',
    });
    expect(platform.calls('GET', '/xrpc/app.bsky.actor.getProfile')[0]!.query.get('actor')).toBe('did:plc:z72i7hdynmk6r22z27h6tvur');
  });

  it('signs in at the server the client names', async () => {
    platform.on('POST', '/xrpc/com.atproto.server.createSession', { json: session(platform.baseUrl) });
    platform.on('GET', '/xrpc/app.bsky.actor.getProfile', { status: 400, json: { error: 'InvalidRequest', message: 'Profile not found' } });
    const [account] = await blueskyCredentials.connect(platform.fetch, { identifier: 'me@heraldcoffee.example', password: 'p', server: platform.baseUrl });
    expect(account!.displayName).toBe('heraldcoffee.bsky.social');
    expect(blueskyCredentials.fields.map((field) => [field.name, field.type, field.optional ?? false])).toEqual([
      ['identifier', 'text', false],
      ['password', 'password', false],
      ['server', 'url', true],
    ]);
  });

  it('turns a refused password into a readable message', async () => {
    platform.on('POST', '/xrpc/com.atproto.server.createSession', { status: 401, json: f('error-auth') });
    const error = await blueskyCredentials
      .connect(platform.fetch, { identifier: 'someone', password: 'wrong', server: platform.baseUrl })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('Bluesky did not accept the sign-in (Invalid identifier or password). Check the handle and app password.');
  });
});
