// Facebook Pages and Instagram business accounts, both through Facebook Login (the Meta app
// in META_APP_ID / META_APP_SECRET), with PKCE. After consent the short-lived user token is
// exchanged for a long-lived one, so the Page tokens read with it do not expire; the client
// then picks which Page (or which Instagram account linked to a Page) Herald publishes as.
//   dialog:   <META_OAUTH_DIALOG_URL>?client_id&redirect_uri&state&scope&response_type=code&code_challenge…
//   token:    GET <graph>/oauth/access_token?client_id&redirect_uri&client_secret&code&code_verifier
//   extend:   GET <graph>/oauth/access_token?grant_type=fb_exchange_token&client_id&client_secret&fb_exchange_token
//   scopes:   GET <graph>/me/permissions
//   accounts: GET <graph>/me/accounts?fields=…
import { callApi, firstJsonString, isSuccess, jsonAt, jsonString, withQuery, type Fetcher } from '@/server/platforms/http';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { OAuthFlowError, type GrantedAccount, type OAuthProvider } from '../oauth-provider';

const META_ERROR_PATHS = [['error', 'message'], 'error_description', 'error'] as const;

function metaRefusal(response: { status: number; json: unknown }, what: string): OAuthFlowError {
  const reason = firstJsonString(response.json, META_ERROR_PATHS) ?? `HTTP ${response.status}`;
  return new OAuthFlowError(`Facebook did not accept the sign-in (${reason}). ${what}`);
}

async function metaUserToken(fetch: Fetcher, app: OAuthApp, code: string, redirectUri: string, codeVerifier: string | null): Promise<string> {
  const short = await callApi(
    fetch,
    withQuery(app.tokenUrl, {
      client_id: app.clientId,
      redirect_uri: redirectUri,
      client_secret: app.clientSecret ?? undefined,
      code,
      code_verifier: codeVerifier ?? undefined,
    }),
  );
  const shortToken = jsonString(short.json, 'access_token');
  if (!isSuccess(short) || !shortToken) throw metaRefusal(short, 'Please try again.');
  // Page tokens read with a long-lived user token never expire; with the short one they would
  // stop working within hours.
  const long = await callApi(
    fetch,
    withQuery(app.tokenUrl, {
      grant_type: 'fb_exchange_token',
      client_id: app.clientId,
      client_secret: app.clientSecret ?? undefined,
      fb_exchange_token: shortToken,
    }),
  );
  return (isSuccess(long) && jsonString(long.json, 'access_token')) || shortToken;
}

async function grantedScopes(fetch: Fetcher, app: OAuthApp, token: string): Promise<string | null> {
  const res = await callApi(fetch, withQuery(`${app.apiBaseUrl}/me/permissions`, { access_token: token }));
  const rows = jsonAt(res.json, 'data');
  if (!isSuccess(res) || !Array.isArray(rows)) return null;
  return rows
    .filter((r) => jsonString(r, 'status') === 'granted')
    .map((r) => jsonString(r, 'permission'))
    .filter(Boolean)
    .join(' ');
}

async function pages(fetch: Fetcher, app: OAuthApp, token: string): Promise<unknown[]> {
  const res = await callApi(
    fetch,
    withQuery(`${app.apiBaseUrl}/me/accounts`, {
      fields: 'id,name,access_token,picture{url},instagram_business_account{id,username,name,profile_picture_url}',
      limit: 100,
      access_token: token,
    }),
  );
  const rows = jsonAt(res.json, 'data');
  if (!isSuccess(res) || !Array.isArray(rows)) throw metaRefusal(res, 'Please try again.');
  return rows;
}

function metaProvider(target: 'facebook' | 'instagram'): OAuthProvider {
  const scopes =
    target === 'facebook'
      ? // pages_read_user_content and pages_manage_engagement: the comments under the Page's posts
        // (read; reply, hide, delete, like) and its recommendations; pages_messaging: its Messenger
        // conversations — all for the inbox.
        ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'pages_read_user_content', 'pages_manage_engagement', 'pages_messaging']
      : [
          'instagram_basic',
          'instagram_content_publish',
          'instagram_manage_comments',
          // The account's direct messages, for the inbox.
          'instagram_manage_messages',
          'pages_show_list',
          'pages_read_engagement',
          'business_management',
        ];
  return {
    label: target === 'facebook' ? 'Facebook' : 'Instagram',
    pkce: true,
    choose: true,
    authorizeUrl: ({ app, state, redirectUri, codeChallenge }) =>
      withQuery(app.authorizeUrl, {
        client_id: app.clientId,
        redirect_uri: redirectUri,
        state,
        response_type: 'code',
        scope: scopes.join(','),
        code_challenge: codeChallenge ?? undefined,
        code_challenge_method: codeChallenge ? 'S256' : undefined,
      }),

    async connect(fetch, { app, code, redirectUri, codeVerifier }) {
      const userToken = await metaUserToken(fetch, app, code, redirectUri, codeVerifier);
      const granted = await grantedScopes(fetch, app, userToken);
      const accounts: GrantedAccount[] = [];
      for (const page of await pages(fetch, app, userToken)) {
        const pageId = jsonString(page, 'id');
        const pageToken = jsonString(page, 'access_token');
        if (!pageId || !pageToken) continue;
        const pageName = jsonString(page, 'name') ?? pageId;
        if (target === 'facebook') {
          accounts.push({
            externalId: pageId,
            accountName: pageName,
            displayName: pageName,
            avatarUrl: jsonString(page, 'picture', 'data', 'url') ?? null,
            accessToken: pageToken,
            refreshToken: null,
            expiresAt: null,
            scopes: granted,
            kind: 'Facebook Page',
          });
          continue;
        }
        const ig = jsonAt(page, 'instagram_business_account');
        const igId = jsonString(ig, 'id');
        if (!igId) continue;
        const username = jsonString(ig, 'username') ?? igId;
        accounts.push({
          externalId: igId,
          accountName: username,
          displayName: jsonString(ig, 'name') ?? username,
          avatarUrl: jsonString(ig, 'profile_picture_url') ?? null,
          accessToken: pageToken,
          refreshToken: null,
          expiresAt: null,
          scopes: granted,
          // The Page the account is linked to: its direct messages are the Page's conversations
          // with platform=instagram (server/platforms/instagram/instagram-messages.ts).
          platformData: { pageId },
          kind: `Instagram business account (via ${pageName})`,
        });
      }
      if (accounts.length === 0) {
        throw new OAuthFlowError(
          target === 'facebook'
            ? 'Facebook shared no Page with us. Choose at least one Page you manage when Facebook asks, then try again.'
            : 'No Instagram business or creator account is linked to the Pages you shared. Link one to a Facebook Page, then try again.',
        );
      }
      return accounts;
    },
  };
}

export const facebookOAuth = metaProvider('facebook');
export const instagramOAuth = metaProvider('instagram');
