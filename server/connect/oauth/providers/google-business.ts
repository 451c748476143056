// Google Business Profile: Google OAuth (./google.ts) with the business.manage scope, then the
// locations the grant reaches, each a choice (externalId accounts/{a}/locations/{l}):
//   accounts:  GET <accounts host>/v1/accounts?pageSize=20[&pageToken]
//     https://developers.google.com/my-business/reference/accountmanagement/rest/v1/accounts/list
//   locations: GET <information host>/v1/{accounts/*}/locations?readMask=name,title,storefrontAddress,metadata&pageSize=100
//     https://developers.google.com/my-business/reference/businessinformation/rest/v1/accounts.locations/list
import { callApi, isSuccess, jsonAt, jsonString, withQuery, type Fetcher } from '@/server/platforms/http';
import { googleBusinessHosts } from '@/server/platforms/google_business/google-business-api';
import { OAuthFlowError, type GrantedAccount, type OAuthProvider } from '../oauth-provider';
import { googleAuthorizeUrl, googleCodeExchange, googleRefusal, type GoogleGrant } from './google';

const SCOPES = ['https://www.googleapis.com/auth/business.manage'];
const LABEL = 'Google Business Profile';
/** Pages of accounts, and of each account's locations, read at most (an agency's client has a few). */
const MAX_PAGES = 5;

async function pages(fetch: Fetcher, url: string, token: string, key: string, params: Record<string, string | number>): Promise<unknown[]> {
  const rows: unknown[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await callApi(fetch, withQuery(url, { ...params, pageToken }), { headers: { authorization: `Bearer ${token}` } });
    if (!isSuccess(res)) throw googleRefusal(LABEL, res, key === 'accounts' ? 'your business accounts' : 'your locations');
    const found = jsonAt(res.json, key);
    if (Array.isArray(found)) rows.push(...found);
    pageToken = jsonString(res.json, 'nextPageToken');
    if (!pageToken) break;
  }
  return rows;
}

function address(location: unknown): string | null {
  const locality = jsonString(location, 'storefrontAddress', 'locality');
  const line = jsonString(location, 'storefrontAddress', 'addressLines', 0);
  return [line, locality].filter(Boolean).join(', ') || null;
}

function granted(grant: GoogleGrant, accountName: string, account: unknown, location: unknown): GrantedAccount | null {
  const name = jsonString(location, 'name'); // locations/{l}
  if (!name?.startsWith('locations/')) return null;
  const title = jsonString(location, 'title') ?? name;
  const where = address(location);
  return {
    externalId: `${accountName}/${name}`,
    accountName: title,
    displayName: where ? `${title} (${where})` : title,
    avatarUrl: null,
    ...grant,
    kind: `Business Profile location (${jsonString(account, 'accountName') ?? accountName})`,
    // Non-secret, for showing where the posts appear; the adapter needs only the externalId.
    platformData: { mapsUri: jsonString(location, 'metadata', 'mapsUri') ?? null },
  };
}

export const googleBusinessOAuth: OAuthProvider = {
  label: LABEL,
  pkce: true,
  choose: true,
  authorizeUrl: (params) => googleAuthorizeUrl(SCOPES, params),

  async connect(fetch, params) {
    const grant = await googleCodeExchange(fetch, LABEL, params);
    const hosts = googleBusinessHosts(params.app.apiBaseUrl);
    const choices: GrantedAccount[] = [];
    for (const account of await pages(fetch, `${hosts.accounts}/v1/accounts`, grant.accessToken, 'accounts', { pageSize: 20 })) {
      const accountName = jsonString(account, 'name'); // accounts/{a}
      if (!accountName?.startsWith('accounts/')) continue;
      const locations = await pages(fetch, `${hosts.information}/v1/${accountName}/locations`, grant.accessToken, 'locations', {
        readMask: 'name,title,storefrontAddress,metadata',
        pageSize: 100,
      });
      for (const location of locations) {
        const choice = granted(grant, accountName, account, location);
        if (choice && !choices.some((c) => c.externalId === choice.externalId)) choices.push(choice);
      }
    }
    if (choices.length === 0) {
      throw new OAuthFlowError('This Google account manages no Business Profile location. Sign in with the account that manages the business, then try again.');
    }
    return choices;
  },
};
