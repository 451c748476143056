// VK's connect through VK ID against a local HTTPS fake with the documented shapes:
//   https://id.vk.com/about/business/go/docs/ru/vkid/latest/vk-id/connection/api-integration/api-description
//     (the consent page's parameters; the callback's code, state and device_id; the
//     authorization_code grant at /oauth2/auth)
//   https://dev.vk.com/ru/method/users.get and https://dev.vk.com/ru/method/groups.get (filter=admin)
import { describe, expect, it } from 'vitest';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { vkOAuth } from './vk';

const platform = useFakePlatformApi();
const REDIRECT = 'https://herald.example/connect/callback/vk';
const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/vk`, name);
const callback = new URLSearchParams({ code: 'c0de', state: 'st4te', device_id: 'dev-1', type: 'code_v2', expires_in: '600' });

const app = (): OAuthApp => ({
  clientId: '51234567',
  clientSecret: null,
  authorizeUrl: 'https://id.vk.test/authorize',
  tokenUrl: `${platform.baseUrl}/oauth2/auth`,
  apiBaseUrl: `${platform.baseUrl}/method`,
});

describe('VK connect', () => {
  it('asks VK ID for a code with a PKCE challenge and the wall, photos, video and groups access', () => {
    const url = new URL(vkOAuth.authorizeUrl({ app: app(), state: 's', redirectUri: REDIRECT, codeChallenge: 'ch4llenge' }));
    expect(url.origin + url.pathname).toBe('https://id.vk.test/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: '51234567',
      redirect_uri: REDIRECT,
      state: 's',
      code_challenge: 'ch4llenge',
      code_challenge_method: 's256',
      scope: 'vkid.personal_info wall photos video groups',
    });
  });

  it('exchanges the code with the verifier and device_id, and offers the user’s wall and each community they administer', async () => {
    platform.on('POST', '/oauth2/auth', { json: f('token') });
    platform.on('POST', '/method/users.get', { json: f('users-get') });
    platform.on('POST', '/method/groups.get', { json: f('groups-admin') });

    const choices = await vkOAuth.connect(platform.fetch, { app: app(), code: 'c0de', redirectUri: REDIRECT, codeVerifier: 'v3rifier', callback });

    expect(Object.fromEntries(platform.calls('POST', '/oauth2/auth')[0]!.form())).toEqual({
      grant_type: 'authorization_code',
      code: 'c0de',
      code_verifier: 'v3rifier',
      client_id: '51234567',
      device_id: 'dev-1',
      redirect_uri: REDIRECT,
      state: 'st4te',
    });
    expect(Object.fromEntries(platform.calls('POST', '/method/groups.get')[0]!.form())).toMatchObject({ filter: 'admin', extended: '1' });
    expect(platform.calls('POST', '/method/groups.get')[0]!.headers.authorization).toBe('Bearer vk2.a.access_1');
    expect(choices.map((c) => c.externalId)).toEqual(['100', '-229000001']);
    expect(choices[0]).toMatchObject({
      accountName: 'anna.petrova',
      displayName: 'Anna Petrova',
      accessToken: 'vk2.a.access_1',
      refreshToken: 'vk2.a.refresh_1',
      kind: 'Your VK wall',
      platformData: { ownerId: 100, userId: 100, deviceId: 'dev-1' },
    });
    expect(choices[0]!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    expect(choices[1]).toMatchObject({
      accountName: 'heraldcoffee',
      displayName: 'Herald Coffee',
      kind: 'VK community',
      platformData: { ownerId: -229000001 },
    });
  });

  it('turns a refused code into VK ID’s own words, and a callback without device_id into a retry', async () => {
    platform.on('POST', '/oauth2/auth', { status: 400, json: { error: 'invalid_grant', error_description: 'Code is expired', state: 'st4te' } });
    const error = await vkOAuth
      .connect(platform.fetch, { app: app(), code: 'old', redirectUri: REDIRECT, codeVerifier: 'v', callback })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('VK did not accept the sign-in (Code is expired). Please try again.');

    const noDevice = new URLSearchParams({ code: 'c0de', state: 'st4te' });
    await expect(vkOAuth.connect(platform.fetch, { app: app(), code: 'c0de', redirectUri: REDIRECT, codeVerifier: 'v', callback: noDevice })).rejects.toThrow(
      /no device_id came back/,
    );
  });
});
