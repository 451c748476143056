// Pinterest API v5 OAuth (https://developers.pinterest.com/docs/getting-started/authentication-and-scopes/):
//   consent: <PINTEREST_OAUTH_AUTHORIZE_URL>?client_id&redirect_uri&response_type=code&scope=a,b&state
//   token:   POST <api>/v5/oauth/token (form; HTTP Basic client authentication)
//   user:    GET <api>/v5/user_account;  boards: GET <api>/v5/boards?page_size=100[&bookmark]
// Pinterest documents no PKCE for this flow, so none is sent. Each board is a choice: a
// connection is one account's board (externalId the board id, platformData the board and user),
// and a post may still name another board of the account (platformSettings.pinterest.boardId).
import { callApi, firstJsonString, isSuccess, jsonAt, jsonString, withQuery, type Fetcher } from '@/server/platforms/http';
import { basicAuth } from '@/server/platforms/pinterest/pinterest-api';
import { expiryFrom, OAuthFlowError, type GrantedAccount, type OAuthProvider } from '../oauth-provider';

// pins:read: the pin's analytics afterwards (server/platforms/pinterest/pinterest-insights.ts).
const SCOPES = ['boards:read', 'pins:read', 'pins:write', 'user_accounts:read'];
const MAX_PAGES = 5;

function refusal(response: { status: number; json: unknown }, what: string): OAuthFlowError {
  const reason = firstJsonString(response.json, ['message', 'error_description', 'error']) ?? `HTTP ${response.status}`;
  return new OAuthFlowError(`Pinterest ${what} (${reason}). Please try again.`);
}

async function boards(fetch: Fetcher, apiBaseUrl: string, token: string): Promise<unknown[]> {
  const rows: unknown[] = [];
  let bookmark: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await callApi(fetch, withQuery(`${apiBaseUrl}/v5/boards`, { page_size: 100, bookmark }), { headers: { authorization: `Bearer ${token}` } });
    if (!isSuccess(res)) throw refusal(res, 'did not share your boards');
    const items = jsonAt(res.json, 'items');
    if (Array.isArray(items)) rows.push(...items);
    bookmark = jsonString(res.json, 'bookmark');
    if (!bookmark) break;
  }
  return rows;
}

export const pinterestOAuth: OAuthProvider = {
  label: 'Pinterest',
  pkce: false,
  choose: true,
  authorizeUrl: ({ app, state, redirectUri }) =>
    withQuery(app.authorizeUrl, { client_id: app.clientId, redirect_uri: redirectUri, response_type: 'code', scope: SCOPES.join(','), state }),

  async connect(fetch, { app, code, redirectUri }) {
    const token = await callApi(fetch, app.tokenUrl, {
      headers: { authorization: basicAuth(app.clientId, app.clientSecret ?? '') },
      form: { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
    });
    const accessToken = jsonString(token.json, 'access_token');
    if (!isSuccess(token) || !accessToken) throw refusal(token, 'did not accept the sign-in');

    const me = await callApi(fetch, `${app.apiBaseUrl}/v5/user_account`, { headers: { authorization: `Bearer ${accessToken}` } });
    const username = jsonString(me.json, 'username');
    if (!isSuccess(me) || !username) throw refusal(me, 'signed you in but did not share your account');
    const userId = jsonString(me.json, 'id') ?? username;
    const tokens = {
      accessToken,
      refreshToken: jsonString(token.json, 'refresh_token') ?? null,
      expiresAt: expiryFrom(jsonString(token.json, 'expires_in')),
      scopes: jsonString(token.json, 'scope')?.replace(/,/g, ' ') ?? null,
    };

    const choices: GrantedAccount[] = [];
    for (const board of await boards(fetch, app.apiBaseUrl, accessToken)) {
      const boardId = jsonString(board, 'id');
      if (!boardId) continue;
      const boardName = jsonString(board, 'name') ?? boardId;
      choices.push({
        externalId: boardId,
        accountName: `${username} / ${boardName}`,
        displayName: `${jsonString(me.json, 'business_name') || username}: ${boardName}`,
        avatarUrl: jsonString(me.json, 'profile_image') ?? null,
        ...tokens,
        kind: `Pinterest board${jsonString(board, 'privacy') === 'SECRET' ? ' (secret)' : ''}`,
        platformData: { boardId, boardName, userId, username },
      });
    }
    if (choices.length === 0) throw new OAuthFlowError('This Pinterest account has no board to pin to. Create a board on Pinterest, then try again.');
    return choices;
  },
};
