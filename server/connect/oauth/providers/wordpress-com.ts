// WordPress.com OAuth 2 (https://developer.wordpress.com/docs/oauth2/):
//   consent: https://public-api.wordpress.com/oauth2/authorize?client_id&redirect_uri
//            &response_type=code&scope&state
//   token:   POST https://public-api.wordpress.com/oauth2/token (form: client_id, client_secret,
//            redirect_uri, code, grant_type=authorization_code) → { access_token, token_type:
//            "bearer", blog_id, blog_url, scope }; the token does not expire and has no refresh
//   sites:   GET /rest/v1.1/me/sites?fields=… → { sites: [{ ID, name, URL, icon: { img },
//            capabilities: { publish_posts, … } }] }
//            (https://developer.wordpress.com/docs/api/1.1/get/me/sites/)
// Herald asks for the `global` scope: one consent reaches every site the user writes for, and
// the client picks which sites to connect (a token without it is limited to the one site picked
// on WordPress.com's page, which an agency managing several would have to repeat per site). A
// site where the user cannot publish is left out, so no connection is made that would fail.
// Self-hosted sites connect with an application password instead (wordpress.ts).
import { callApi, firstJsonString, isSuccess, jsonAt, jsonString, withQuery } from '@/server/platforms/http';
import { OAuthFlowError, type GrantedAccount, type OAuthProvider } from '../oauth-provider';

export const WORDPRESS_COM_SCOPES = ['global'];

const ERROR_PATHS = ['error_description', 'message', 'error'] as const;

export const wordpressComOAuth: OAuthProvider = {
  label: 'WordPress.com',
  pkce: false,
  choose: true,
  authorizeUrl: ({ app, state, redirectUri }) =>
    withQuery(app.authorizeUrl, { client_id: app.clientId, redirect_uri: redirectUri, response_type: 'code', scope: WORDPRESS_COM_SCOPES.join(' '), state }),

  async connect(fetch, { app, code, redirectUri }) {
    const token = await callApi(fetch, app.tokenUrl, {
      form: { client_id: app.clientId, client_secret: app.clientSecret ?? undefined, redirect_uri: redirectUri, code, grant_type: 'authorization_code' },
    });
    const accessToken = jsonString(token.json, 'access_token');
    if (!isSuccess(token) || !accessToken) {
      throw new OAuthFlowError(
        `WordPress.com did not accept the sign-in (${firstJsonString(token.json, ERROR_PATHS) ?? `HTTP ${token.status}`}). Please try again.`,
      );
    }
    const fields = 'ID,name,URL,icon,capabilities,is_private,jetpack';
    const listed = await callApi(fetch, `${app.apiBaseUrl}/rest/v1.1/me/sites?${new URLSearchParams({ fields })}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const sites = jsonAt(listed.json, 'sites');
    if (!isSuccess(listed) || !Array.isArray(sites)) {
      throw new OAuthFlowError(
        `WordPress.com signed you in but did not share your sites (${firstJsonString(listed.json, ERROR_PATHS) ?? `HTTP ${listed.status}`}). Please try again.`,
      );
    }
    const scopes = jsonString(token.json, 'scope') ?? WORDPRESS_COM_SCOPES.join(' ');
    const choices: GrantedAccount[] = sites.flatMap((site) => {
      const id = jsonString(site, 'ID');
      const url = jsonString(site, 'URL');
      if (!id || !url || jsonAt(site, 'capabilities', 'publish_posts') !== true) return [];
      const host = new URL(url).host;
      const icon = jsonString(site, 'icon', 'img');
      return [
        {
          externalId: id,
          accountName: host,
          displayName: jsonString(site, 'name')?.trim() || host,
          avatarUrl: icon ?? null,
          accessToken,
          refreshToken: null,
          expiresAt: null,
          scopes,
          kind: jsonAt(site, 'jetpack') === true ? 'Jetpack site' : 'WordPress.com site',
          platformData: { siteId: id, siteUrl: url },
        },
      ];
    });
    if (choices.length === 0) {
      throw new OAuthFlowError(
        'This WordPress.com account cannot publish on any site. Sign in as an author, editor or administrator of the site, then try again.',
      );
    }
    return choices;
  },
};
