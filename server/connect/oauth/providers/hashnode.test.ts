// Connecting Hashnode with a personal access token: the `me` query with the account's
// publications (https://apidocs.hashnode.com/, "Authentication"), against a local fake.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { hashnodeCredentials } from './hashnode';

const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/hashnode`, name);
const platform = useFakePlatformApi();
beforeEach(() => vi.stubEnv('HASHNODE_API_BASE_URL', platform.baseUrl));
afterEach(() => vi.unstubAllEnvs());

describe('Hashnode connect', () => {
  it('checks the token with `me` and offers each of the account’s blogs', async () => {
    platform.on('POST', '/', { json: f('me') });
    const accounts = await hashnodeCredentials.connect(platform.fetch, { token: ' hn-token ' });
    expect(hashnodeCredentials.choose).toBe(true);
    expect(accounts.map((a) => [a.externalId, a.accountName, a.displayName, a.platformData])).toEqual([
      [
        '6571f0c2a8b9d40012e3f4b1',
        'engineering.heraldcoffee.example',
        'Herald Coffee Engineering',
        { publicationId: '6571f0c2a8b9d40012e3f4b1', username: 'heraldcoffee', publicationUrl: 'https://engineering.heraldcoffee.example' },
      ],
      [
        '6571f0c2a8b9d40012e3f4b2',
        'heraldcoffee.hashnode.dev',
        'Herald Coffee Notes',
        { publicationId: '6571f0c2a8b9d40012e3f4b2', username: 'heraldcoffee', publicationUrl: 'https://heraldcoffee.hashnode.dev' },
      ],
    ]);
    expect(accounts[0]).toMatchObject({ accessToken: 'hn-token', refreshToken: null, expiresAt: null });
    const [call] = platform.calls('POST', '/');
    expect(call!.headers.authorization).toBe('hn-token');
    expect(call!.json().query).toContain('publications(first: 20) { edges { node { id title url } } }');
  });

  it('turns a refused token into a readable message, in Hashnode’s words', async () => {
    platform.on('POST', '/', { json: f('error-unauthenticated') });
    const error = await hashnodeCredentials.connect(platform.fetch, { token: 'bad' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('Hashnode did not accept the token (Invalid access token provided.). Check it, or generate a new one.');
  });

  it('says so when the account has no blog, and asks for a token before any call', async () => {
    const me = f('me');
    me.data.me.publications.edges = [];
    platform.on('POST', '/', { json: me });
    await expect(hashnodeCredentials.connect(platform.fetch, { token: 'hn-token' })).rejects.toThrow(
      'The Hashnode account @heraldcoffee has no blog to publish to. Create one in Hashnode, then connect again.',
    );
    platform.reset();
    await expect(hashnodeCredentials.connect(platform.fetch, { token: ' ' })).rejects.toThrow('Enter your Hashnode personal access token.');
    expect(platform.requests).toHaveLength(0);
  });
});
