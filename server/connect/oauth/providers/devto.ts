// Dev.to: no consent page. The client creates an API key in DEV (Settings → Extensions →
// "DEV Community API Keys") and types it here. Herald checks it with GET /api/users/me
// (https://developers.forem.com/api/v1#tag/users/operation/getUserMe: id, username, name,
// profile_image) before anything is saved, and keeps the key as the connection's (sealed)
// access token; the username goes to platformData. A key does not lapse; revoking it in DEV
// makes the next publish ask for a reconnect.
import { callApi, baseUrlFromEnv, isSuccess, jsonString } from '@/server/platforms/http';
import { DEVTO_ACCEPT, DEVTO_DEFAULT_BASE_URL, devtoErrorText } from '@/server/platforms/devto/devto-api';
import { OAuthFlowError, type CredentialsProvider, type GrantedAccount } from '../oauth-provider';

export const devtoCredentials: CredentialsProvider = {
  kind: 'credentials',
  label: 'Dev.to',
  choose: false,
  fields: [
    {
      name: 'apiKey',
      label: 'API key',
      type: 'password',
      placeholder: 'Your DEV API key',
      help: 'In DEV, open Settings → Extensions, and under “DEV Community API Keys” generate a key for Herald.',
    },
  ],
  available: () => true,
  needsDeploymentSetup: false,
  instructions: async () => 'Herald publishes to DEV with an API key of your account. You can revoke it in DEV’s settings at any time.',

  async connect(fetch, values): Promise<GrantedAccount[]> {
    const apiKey = values.apiKey?.trim() ?? '';
    if (!apiKey) throw new OAuthFlowError('Enter your DEV API key.');
    const baseUrl = baseUrlFromEnv('DEVTO_API_BASE_URL', DEVTO_DEFAULT_BASE_URL);
    let me;
    try {
      me = await callApi(fetch, `${baseUrl}/api/users/me`, { headers: { 'api-key': apiKey, accept: DEVTO_ACCEPT } });
    } catch {
      throw new OAuthFlowError('We could not reach DEV just now. Try again in a moment.');
    }
    const id = jsonString(me.json, 'id');
    const username = jsonString(me.json, 'username');
    if (!isSuccess(me) || !id || !username) {
      throw new OAuthFlowError(`DEV did not accept the API key (${devtoErrorText(me)}). Check it, or generate a new one.`);
    }
    return [
      {
        externalId: id,
        accountName: `@${username}`,
        displayName: jsonString(me.json, 'name') || username,
        avatarUrl: jsonString(me.json, 'profile_image') ?? null,
        accessToken: apiKey,
        refreshToken: null,
        expiresAt: null,
        scopes: null,
        platformData: { username },
      },
    ];
  },
};
