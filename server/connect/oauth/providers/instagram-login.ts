// Instagram with Instagram Login (Business Login for Instagram): the client signs in on
// Instagram itself with their professional account, no Facebook Page involved. The Instagram
// app's id and secret are INSTAGRAM_APP_ID / INSTAGRAM_APP_SECRET (App Dashboard → Instagram →
// API setup with Instagram login), not the Meta app's.
// https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login
//   consent: https://www.instagram.com/oauth/authorize?client_id&redirect_uri&response_type=code&scope&state
//   token:   POST https://api.instagram.com/oauth/access_token (form: client_id, client_secret,
//            grant_type=authorization_code, redirect_uri, code) → { data: [{ access_token,
//            user_id, permissions }] } (older answers: the same fields at the top level);
//            refusals { error_type, code, error_message }
//   extend:  GET https://graph.instagram.com/access_token?grant_type=ig_exchange_token
//            &client_secret&access_token → { access_token, token_type, expires_in } (60 days)
//   account: GET graph.instagram.com/<v>/me?fields=user_id,username,name,profile_picture_url
//            (user_id: the professional account's id, the one the publishing calls take)
// https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/get-started
import { callApi, firstJsonString, isSuccess, jsonAt, jsonString, withQuery } from '@/server/platforms/http';
import { expiryFrom, OAuthFlowError, type OAuthProvider } from '../oauth-provider';

// Publishing, the comments under the account's media and its direct messages (the inbox), and
// their insights (results).
export const INSTAGRAM_LOGIN_SCOPES = [
  'instagram_business_basic',
  'instagram_business_content_publish',
  'instagram_business_manage_comments',
  'instagram_business_manage_messages',
  'instagram_business_manage_insights',
];

const ERROR_PATHS = ['error_message', ['error', 'message'], 'error_description', 'error'] as const;

export const instagramLoginOAuth: OAuthProvider = {
  label: 'Instagram',
  pkce: false,
  choose: false,
  authorizeUrl: ({ app, state, redirectUri }) =>
    withQuery(app.authorizeUrl, {
      client_id: app.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: INSTAGRAM_LOGIN_SCOPES.join(','),
      state,
    }),

  async connect(fetch, { app, code, redirectUri }) {
    const short = await callApi(fetch, app.tokenUrl, {
      form: { client_id: app.clientId, client_secret: app.clientSecret ?? undefined, grant_type: 'authorization_code', redirect_uri: redirectUri, code },
    });
    const granted = Array.isArray(jsonAt(short.json, 'data')) ? jsonAt(short.json, 'data', 0) : short.json;
    const shortToken = jsonString(granted, 'access_token');
    if (!isSuccess(short) || !shortToken) {
      throw new OAuthFlowError(
        `Instagram did not accept the sign-in (${firstJsonString(short.json, ERROR_PATHS) ?? `HTTP ${short.status}`}). Please try again.`,
      );
    }
    // The short-lived token lasts an hour; the 60-day one is what the adapters extend.
    const long = await callApi(
      fetch,
      withQuery(`${new URL(app.apiBaseUrl).origin}/access_token`, {
        grant_type: 'ig_exchange_token',
        client_secret: app.clientSecret ?? undefined,
        access_token: shortToken,
      }),
    );
    const longToken = isSuccess(long) ? jsonString(long.json, 'access_token') : undefined;
    const accessToken = longToken ?? shortToken;
    const me = await callApi(fetch, withQuery(`${app.apiBaseUrl}/me`, { fields: 'user_id,username,name,profile_picture_url', access_token: accessToken }));
    const id = (isSuccess(me) && jsonString(me.json, 'user_id')) || jsonString(granted, 'user_id');
    if (!id) throw new OAuthFlowError('Instagram signed you in but did not share your account. Please try again.');
    const username = jsonString(me.json, 'username') ?? id;
    const permissions = jsonString(granted, 'permissions');
    return [
      {
        externalId: id,
        accountName: username,
        displayName: jsonString(me.json, 'name') || username,
        avatarUrl: jsonString(me.json, 'profile_picture_url') ?? null,
        accessToken,
        refreshToken: null,
        expiresAt: longToken ? expiryFrom(jsonString(long.json, 'expires_in')) : expiryFrom(3600),
        scopes: permissions ? permissions.split(',').join(' ') : INSTAGRAM_LOGIN_SCOPES.join(' '),
        kind: 'Instagram professional account',
      },
    ];
  },
};
