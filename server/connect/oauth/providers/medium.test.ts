// Connecting Medium with an integration token: GET /v1/me, /v1/users/{userId}/publications and each
// publication's contributors (https://github.com/Medium/medium-api-docs, "3.1. Users" and
// "3.2. Publications"), against a local fake.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { mediumCredentials } from './medium';

const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/medium`, name);
const platform = useFakePlatformApi();
const USER = '5303d74c64f66366f00cb9b2a94f3251bf5';
beforeEach(() => vi.stubEnv('MEDIUM_API_BASE_URL', platform.baseUrl));
afterEach(() => vi.unstubAllEnvs());

const contributors = (publicationId: string, role: string | null) => ({
  json: {
    data: [
      { publicationId, userId: '13a06af8f81849c64dafbce822cbafbfab7ed7cecf82135bca946807ea351290d', role: 'editor' },
      ...(role ? [{ publicationId, userId: USER, role }] : []),
    ],
  },
});

describe('Medium connect', () => {
  it('offers the profile and the publications the account edits or writes for, not those it only follows', async () => {
    platform.on('GET', '/v1/me', { json: f('me') });
    platform.on('GET', `/v1/users/${USER}/publications`, { json: f('publications') });
    platform.on('GET', '/v1/publications/b969ac62a46b/contributors', contributors('b969ac62a46b', 'editor'));
    platform.on('GET', '/v1/publications/b45573563f5a/contributors', contributors('b45573563f5a', 'writer'));
    platform.on('GET', '/v1/publications/c1d2e3f4a5b6/contributors', contributors('c1d2e3f4a5b6', null));
    const accounts = await mediumCredentials.connect(platform.fetch, { token: ' medium-token ' });
    expect(mediumCredentials.choose).toBe(true);
    expect(accounts.map((a) => [a.externalId, a.accountName, a.displayName, a.platformData])).toEqual([
      [USER, '@heraldcoffee', 'Herald Coffee', { userId: USER, username: 'heraldcoffee' }],
      [
        'b969ac62a46b',
        'https://medium.com/coffee-craft',
        'Coffee Craft',
        { userId: USER, username: 'heraldcoffee', publicationId: 'b969ac62a46b', publicationName: 'Coffee Craft', role: 'editor' },
      ],
      [
        'b45573563f5a',
        'https://medium.com/barista-notes',
        'Barista Notes',
        { userId: USER, username: 'heraldcoffee', publicationId: 'b45573563f5a', publicationName: 'Barista Notes', role: 'writer' },
      ],
    ]);
    expect(accounts[0]).toMatchObject({ accessToken: 'medium-token', refreshToken: null, expiresAt: null });
    expect(platform.calls('GET', '/v1/me')[0]!.headers.authorization).toBe('Bearer medium-token');
  });

  it('turns a refused token into a readable message, in Medium’s words', async () => {
    platform.on('GET', '/v1/me', { status: 401, json: f('error-unauthorized') });
    const error = await mediumCredentials.connect(platform.fetch, { token: 'old' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('Medium did not accept the integration token (The access token is invalid or has been revoked.). Check it.');
  });

  it('says plainly that Medium no longer supports its API nor issues tokens, and asks for a token before any call', async () => {
    expect(mediumCredentials.fields[0]!.help).toContain('Medium no longer supports its API (its documentation was archived on 2 March 2023');
    expect(await mediumCredentials.instructions()).toContain('no longer issues new integration tokens');
    await expect(mediumCredentials.connect(platform.fetch, { token: '' })).rejects.toThrow('Enter your Medium integration token.');
    expect(platform.requests).toHaveLength(0);
  });
});
