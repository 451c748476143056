// VK through VK ID (OAuth 2.1, authorization code with PKCE):
// https://id.vk.com/about/business/go/docs/ru/vkid/latest/vk-id/connection/api-integration/api-description
//   consent:  https://id.vk.com/authorize?response_type=code&client_id&redirect_uri&state
//             &code_challenge&code_challenge_method=s256&scope (space-separated)
//   callback: ?code&state&device_id (&expires_in&type=code_v2&ext_id)
//   token:    POST https://id.vk.com/oauth2/auth (form: grant_type=authorization_code, code,
//             code_verifier, client_id, device_id, redirect_uri, state) → { access_token,
//             refresh_token, id_token, token_type, expires_in (3600), user_id, state, scope }
//             or { error, error_description }
// VK ID is a public client: no secret, the PKCE verifier proves the exchange. The device_id
// is kept (platformData) because every refresh grant asks for it again.
// The walls the user may post to: their own (users.get, https://dev.vk.com/ru/method/users.get)
// and those of the communities they administer (groups.get filter=admin extended=1,
// https://dev.vk.com/ru/method/groups.get); each is a choice. A community's wall is posted
// to as owner_id=-<group id> with from_group=1.
import { callApi, firstJsonString, isSuccess, jsonAt, jsonString, withQuery } from '@/server/platforms/http';
import { PlatformError } from '@/server/platforms/publisher';
import { vkClient } from '@/server/platforms/vk/vk-api';
import { expiryFrom, OAuthFlowError, type GrantedAccount, type OAuthProvider } from '../oauth-provider';

// wall: posting; photos and video: uploads for the wall; groups: the communities administered.
export const VK_SCOPES = ['vkid.personal_info', 'wall', 'photos', 'video', 'groups'];

export const vkOAuth: OAuthProvider = {
  label: 'VK',
  pkce: true,
  choose: true,
  authorizeUrl: ({ app, state, redirectUri, codeChallenge }) =>
    withQuery(app.authorizeUrl, {
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: redirectUri,
      state,
      code_challenge: codeChallenge ?? undefined,
      code_challenge_method: 's256',
      scope: VK_SCOPES.join(' '),
    }),

  async connect(fetch, { app, code, redirectUri, codeVerifier, callback }) {
    const deviceId = callback?.get('device_id');
    if (!deviceId) throw new OAuthFlowError('VK did not say which device signed in (no device_id came back). Please try again.');
    const token = await callApi(fetch, app.tokenUrl, {
      form: {
        grant_type: 'authorization_code',
        code,
        code_verifier: codeVerifier ?? undefined,
        client_id: app.clientId,
        device_id: deviceId,
        redirect_uri: redirectUri,
        state: callback?.get('state') ?? undefined,
      },
    });
    const accessToken = jsonString(token.json, 'access_token');
    if (!isSuccess(token) || !accessToken) {
      throw new OAuthFlowError(
        `VK did not accept the sign-in (${firstJsonString(token.json, ['error_description', 'error']) ?? `HTTP ${token.status}`}). Please try again.`,
      );
    }
    const tokens = {
      accessToken,
      refreshToken: jsonString(token.json, 'refresh_token') ?? null,
      expiresAt: expiryFrom(jsonString(token.json, 'expires_in')),
      scopes: jsonString(token.json, 'scope') ?? VK_SCOPES.join(' '),
    };

    const api = vkClient(fetch, app.apiBaseUrl, accessToken);
    let user: unknown;
    let groups: unknown;
    try {
      user = jsonAt(await api.call('users.get', { fields: 'screen_name,photo_100' }), 0);
      groups = jsonAt(await api.call('groups.get', { filter: 'admin', extended: 1, fields: 'screen_name,photo_100' }), 'items');
    } catch (error) {
      if (error instanceof PlatformError) throw new OAuthFlowError(`VK signed you in but did not share your walls (${error.message}). Please try again.`);
      throw error;
    }
    const userId = jsonString(user, 'id') ?? jsonString(token.json, 'user_id');
    if (!userId) throw new OAuthFlowError('VK signed you in but did not say who you are. Please try again.');
    const name = [jsonString(user, 'first_name'), jsonString(user, 'last_name')].filter(Boolean).join(' ') || `id${userId}`;
    const own: GrantedAccount = {
      externalId: userId,
      accountName: jsonString(user, 'screen_name') || `id${userId}`,
      displayName: name,
      avatarUrl: jsonString(user, 'photo_100') ?? null,
      ...tokens,
      kind: 'Your VK wall',
      platformData: { ownerId: Number(userId), userId: Number(userId), deviceId },
    };
    const communities = (Array.isArray(groups) ? groups : []).flatMap((group): GrantedAccount[] => {
      const id = jsonString(group, 'id');
      if (!id) return [];
      return [
        {
          // Negative, as VK names a community's wall: a community and a user may share a number.
          externalId: `-${id}`,
          accountName: jsonString(group, 'screen_name') || `club${id}`,
          displayName: jsonString(group, 'name') || `club${id}`,
          avatarUrl: jsonString(group, 'photo_100') ?? null,
          ...tokens,
          kind: 'VK community',
          platformData: { ownerId: -Number(id), userId: Number(userId), deviceId },
        },
      ];
    });
    return [own, ...communities];
  },
};
