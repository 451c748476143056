// Connecting a Lemmy account: login (https://join-lemmy.org/api/classes/LemmyHttp.html#login),
// the account (GetSite my_user, https://join-lemmy.org/api/classes/LemmyHttp.html#getSite) and
// the community (https://join-lemmy.org/api/classes/LemmyHttp.html#getCommunity), against a
// local fake; the instance's address passes the outbound guard like any other.
import { describe, expect, it } from 'vitest';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { guardedFetch } from '@/server/outbound';
import { OAuthFlowError } from '../oauth-provider';
import { lemmyCredentials } from './lemmy';

const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/lemmy`, name);
const platform = useFakePlatformApi();
const values = () => ({ instance: platform.baseUrl, username: 'heraldcoffee', password: 'correct horse', community: '!coffee@lemmy.world' });

describe('Lemmy', () => {
  it('signs in once, keeps the login token (never the password) and the community chosen', async () => {
    platform.on('POST', '/api/v3/user/login', { json: f('login') });
    platform.on('GET', '/api/v3/site', { json: f('site') });
    platform.on('GET', '/api/v3/community', { json: f('community') });
    const [account, ...more] = await lemmyCredentials.connect(platform.fetch, values());

    expect(more).toEqual([]);
    expect(platform.calls('POST', '/api/v3/user/login')[0]!.json()).toEqual({ username_or_email: 'heraldcoffee', password: 'correct horse' });
    expect(platform.calls('GET', '/api/v3/site')[0]!.headers.authorization).toBe(`Bearer ${f('login').jwt}`);
    expect(platform.calls('GET', '/api/v3/community')[0]!.query.get('name')).toBe('coffee@lemmy.world');
    const host = new URL(platform.baseUrl).host;
    expect(account).toMatchObject({
      externalId: `2410@${host}!77`,
      accountName: `@heraldcoffee@${host} → !coffee@lemmy.world`,
      displayName: 'Herald Coffee',
      accessToken: f('login').jwt,
      refreshToken: null,
      expiresAt: null,
      platformData: { instanceUrl: platform.baseUrl, username: 'heraldcoffee', personId: 2410, communityId: 77, community: '!coffee@lemmy.world' },
    });
    expect(JSON.stringify(account)).not.toContain('correct horse');
  });

  it('shows the instance’s reason for a refused login, and for a community it does not know', async () => {
    platform.on('POST', '/api/v3/user/login', { status: 400, json: f('error-incorrect-login') });
    await expect(lemmyCredentials.connect(platform.fetch, values())).rejects.toThrow(/did not accept the sign-in \(incorrect_login\)/);
    platform.on('POST', '/api/v3/user/login', { json: f('login') });
    platform.on('GET', '/api/v3/site', { json: f('site') });
    platform.on('GET', '/api/v3/community', { status: 404, json: f('error-couldnt-find-community') });
    await expect(lemmyCredentials.connect(platform.fetch, values())).rejects.toThrow(
      /does not know the community coffee@lemmy\.world \(couldnt_find_community\)/,
    );
  });

  it('refuses an instance the outbound guard refuses, before any sign-in leaves Herald', async () => {
    const attempt = lemmyCredentials.connect(guardedFetch, { ...values(), instance: 'https://127.0.0.1' });
    await expect(attempt).rejects.toBeInstanceOf(OAuthFlowError);
    await expect(lemmyCredentials.connect(guardedFetch, { ...values(), instance: 'http://lemmy.example' })).rejects.toBeInstanceOf(OAuthFlowError);
    expect(platform.requests).toHaveLength(0);
  });
});
