// Connecting a Dev.to account with an API key: GET /api/users/me
// (https://developers.forem.com/api/v1#tag/users/operation/getUserMe) against a local fake.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { devtoCredentials } from './devto';

const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/devto`, name);
const platform = useFakePlatformApi();
beforeEach(() => vi.stubEnv('DEVTO_API_BASE_URL', platform.baseUrl));
afterEach(() => vi.unstubAllEnvs());

describe('Dev.to connect', () => {
  it('checks the key against DEV and keeps it as the token', async () => {
    platform.on('GET', '/api/users/me', { json: f('users-me') });
    const [account] = await devtoCredentials.connect(platform.fetch, { apiKey: ' devto-key ' });
    expect(account).toEqual({
      externalId: '1190032',
      accountName: '@heraldcoffee',
      displayName: 'Herald Coffee',
      avatarUrl: f('users-me').profile_image,
      accessToken: 'devto-key',
      refreshToken: null,
      expiresAt: null,
      scopes: null,
      platformData: { username: 'heraldcoffee' },
    });
    expect(platform.calls('GET', '/api/users/me')[0]!.headers['api-key']).toBe('devto-key');
    expect(devtoCredentials.fields.map((field) => [field.name, field.type])).toEqual([['apiKey', 'password']]);
  });

  it('turns a refused key into a readable message, in DEV’s words', async () => {
    platform.on('GET', '/api/users/me', { status: 401, json: f('error-unauthorized') });
    const error = await devtoCredentials.connect(platform.fetch, { apiKey: 'wrong' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('DEV did not accept the API key (unauthorized). Check it, or generate a new one.');
  });

  it('asks for a key before calling DEV', async () => {
    await expect(devtoCredentials.connect(platform.fetch, { apiKey: '  ' })).rejects.toThrow('Enter your DEV API key.');
    expect(platform.requests).toHaveLength(0);
  });
});
