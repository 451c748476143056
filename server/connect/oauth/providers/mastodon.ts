// Mastodon: any server. The client names their server first; Herald registers itself there
// (POST /api/v1/apps, https://docs.joinmastodon.org/methods/apps/#create) and runs OAuth 2.0
// against that server (https://docs.joinmastodon.org/methods/oauth/): /oauth/authorize with
// PKCE S256 (Mastodon 4.3+; older servers ignore it), the code exchanged at /oauth/token. Then
// the account (GET /api/v1/accounts/verify_credentials) and the server's limits (GET
// /api/v2/instance: configuration.statuses.max_characters, max_media_attachments,
// media_attachments.image_size_limit / video_size_limit) go into platformData, where the
// adapter reads them. Every call passes the outbound guard (the fetch the flow lends).
import { env } from '@/server/config/env';
import { callApi, firstJsonString, isSuccess, jsonAt, jsonString, withQuery, type Fetcher } from '@/server/platforms/http';
import { instanceOrigin, MASTODON_SCOPES } from '@/server/platforms/mastodon/mastodon-api';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { OAuthFlowError, type OAuthProvider } from '../oauth-provider';

function originOf(instanceUrl: string): string {
  const origin = instanceOrigin(instanceUrl);
  if (!origin) throw new OAuthFlowError('Enter your Mastodon server’s address, for example mastodon.social.');
  return origin;
}

async function registerApp(fetch: Fetcher, instanceUrl: string, redirectUri: string): Promise<OAuthApp> {
  const origin = originOf(instanceUrl);
  let response;
  try {
    response = await callApi(fetch, `${origin}/api/v1/apps`, {
      json: { client_name: 'Herald', redirect_uris: redirectUri, scopes: MASTODON_SCOPES, website: env.baseUrl() },
    });
  } catch {
    throw new OAuthFlowError(`We could not reach ${new URL(origin).host}. Check the server’s address and try again.`);
  }
  const clientId = jsonString(response.json, 'client_id');
  const clientSecret = jsonString(response.json, 'client_secret');
  if (!isSuccess(response) || !clientId || !clientSecret) {
    const why = firstJsonString(response.json, ['error', 'error_description']) ?? `HTTP ${response.status}`;
    throw new OAuthFlowError(`${new URL(origin).host} did not let Herald sign in there (${why}). Is it a Mastodon server?`);
  }
  return { clientId, clientSecret, authorizeUrl: `${origin}/oauth/authorize`, tokenUrl: `${origin}/oauth/token`, apiBaseUrl: origin };
}

const positive = (value: unknown): number | null => (typeof value === 'number' && value > 0 ? value : null);

export const mastodonOAuth: OAuthProvider = {
  label: 'Mastodon',
  pkce: true,
  choose: false,
  instance: {
    field: {
      name: 'instance',
      label: 'Your Mastodon server',
      type: 'text',
      placeholder: 'mastodon.social',
      help: 'The address of the server your account is on.',
    },
    registerApp,
  },
  authorizeUrl: ({ app, state, redirectUri, codeChallenge }) =>
    withQuery(app.authorizeUrl, {
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: redirectUri,
      scope: MASTODON_SCOPES,
      state,
      code_challenge: codeChallenge ?? undefined,
      code_challenge_method: codeChallenge ? 'S256' : undefined,
    }),

  async connect(fetch, { app, code, redirectUri, codeVerifier }) {
    const token = await callApi(fetch, app.tokenUrl, {
      form: {
        grant_type: 'authorization_code',
        code,
        client_id: app.clientId,
        client_secret: app.clientSecret ?? undefined,
        redirect_uri: redirectUri,
        scope: MASTODON_SCOPES,
        code_verifier: codeVerifier ?? undefined,
      },
    });
    const accessToken = jsonString(token.json, 'access_token');
    if (!isSuccess(token) || !accessToken) {
      const why = firstJsonString(token.json, ['error_description', 'error']) ?? `HTTP ${token.status}`;
      throw new OAuthFlowError(`Mastodon did not accept the sign-in (${why}). Please try again.`);
    }
    const auth = { authorization: `Bearer ${accessToken}` };
    const me = await callApi(fetch, `${app.apiBaseUrl}/api/v1/accounts/verify_credentials`, { headers: auth });
    const id = jsonString(me.json, 'id');
    const username = jsonString(me.json, 'username');
    if (!isSuccess(me) || !id || !username) throw new OAuthFlowError('Mastodon signed you in but did not share your account. Please try again.');
    const instance = await callApi(fetch, `${app.apiBaseUrl}/api/v2/instance`, { headers: auth });
    const config = isSuccess(instance) ? jsonAt(instance.json, 'configuration') : undefined;
    const host = new URL(app.apiBaseUrl).host;
    return [
      {
        // Account ids are the server's own: the host makes them unique across servers.
        externalId: `${id}@${host}`,
        accountName: `@${username}@${host}`,
        displayName: jsonString(me.json, 'display_name') || username,
        avatarUrl: jsonString(me.json, 'avatar') ?? null,
        accessToken,
        refreshToken: null,
        expiresAt: null,
        scopes: jsonString(token.json, 'scope') ?? MASTODON_SCOPES,
        platformData: {
          instanceUrl: app.apiBaseUrl,
          accountId: id,
          profileUrl: jsonString(me.json, 'url') ?? null,
          maxChars: positive(jsonAt(config, 'statuses', 'max_characters')),
          maxMedia: positive(jsonAt(config, 'statuses', 'max_media_attachments')),
          imageSizeLimit: positive(jsonAt(config, 'media_attachments', 'image_size_limit')),
          videoSizeLimit: positive(jsonAt(config, 'media_attachments', 'video_size_limit')),
        },
      },
    ];
  },
};
