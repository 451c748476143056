// Connecting a Listmonk list: the API user's credentials checked with GET /api/lists
// (https://listmonk.app/docs/apis/lists/#get-apilists), against a local fake; the server's
// address passes the outbound guard like any other.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { listmonkCredentials } from './listmonk';

const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/listmonk`, name);
const platform = useFakePlatformApi();
// The fake server lives on 127.0.0.1, which the outbound guard refuses unless allowed.
beforeEach(() => vi.stubEnv('OUTBOUND_ALLOW_HOSTS', '127.0.0.1'));
afterEach(() => vi.unstubAllEnvs());
const values = (list = 'Herald Coffee news') => ({ server: `${platform.baseUrl}/`, apiUser: 'herald', token: ' s3cr3t ', list });

describe('Listmonk connect', () => {
  it('checks the API user against the server and keeps the list chosen, by name or number', async () => {
    platform.on('GET', '/api/lists', { json: f('lists') });
    const [account] = await listmonkCredentials.connect(platform.fetch, values());
    const host = new URL(platform.baseUrl).host;
    expect(account).toEqual({
      externalId: `${host}#list-3`,
      accountName: `${host} → Herald Coffee news`,
      displayName: 'Herald Coffee news',
      avatarUrl: null,
      accessToken: 'herald:s3cr3t',
      refreshToken: null,
      expiresAt: null,
      scopes: null,
      kind: `Listmonk list on ${host}`,
      platformData: { serverUrl: platform.baseUrl, listId: 3, listName: 'Herald Coffee news', apiUser: 'herald' },
    });
    const [read] = platform.calls('GET', '/api/lists');
    expect(read!.headers.authorization).toBe('token herald:s3cr3t');
    expect(read!.query.get('per_page')).toBe('all');
    expect((await listmonkCredentials.connect(platform.fetch, values('1')))[0]!.displayName).toBe('Default list');
  });

  it('names the server’s lists when the one asked for is not there, and says why credentials were refused', async () => {
    platform.on('GET', '/api/lists', { json: f('lists') });
    await expect(listmonkCredentials.connect(platform.fetch, values('Weekly'))).rejects.toThrow(
      /has no list called Weekly \(its lists: Default list, Herald Coffee news\)/,
    );
    platform.on('GET', '/api/lists', { status: 403, json: f('error-invalid-credentials') });
    const error = await listmonkCredentials.connect(platform.fetch, values()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toMatch(/did not accept the API user and token \(invalid API credentials\)/);
  });

  it('refuses a server address the outbound guard refuses, before any call', async () => {
    vi.unstubAllEnvs();
    await expect(listmonkCredentials.connect(platform.fetch, values())).rejects.toBeInstanceOf(OAuthFlowError);
    expect(platform.requests).toHaveLength(0);
  });
});
