// YouTube: Google OAuth (./google.ts) with the scopes to upload and to read the channel; the
// channels the grant reaches are read with channels.list?mine=true
// (https://developers.google.com/youtube/v3/docs/channels/list). A Google account usually
// answers with the one channel picked on Google's consent screen (a brand account's channel is
// chosen there); when it answers with several, the client picks one.
import { callApi, isSuccess, jsonAt, jsonString, withQuery } from '@/server/platforms/http';
import { OAuthFlowError, type GrantedAccount, type OAuthProvider } from '../oauth-provider';
import { googleAuthorizeUrl, googleCodeExchange, googleRefusal } from './google';

// youtube.force-ssl: replying to and moderating comments from the inbox.
const SCOPES = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.readonly',
  'https://www.googleapis.com/auth/youtube.force-ssl',
];

export const youtubeOAuth: OAuthProvider = {
  label: 'YouTube',
  pkce: true,
  choose: true,
  authorizeUrl: (params) => googleAuthorizeUrl(SCOPES, params),

  async connect(fetch, params) {
    const grant = await googleCodeExchange(fetch, 'YouTube', params);
    const res = await callApi(fetch, withQuery(`${params.app.apiBaseUrl}/youtube/v3/channels`, { part: 'snippet', mine: 'true', maxResults: 50 }), {
      headers: { authorization: `Bearer ${grant.accessToken}` },
    });
    const items = jsonAt(res.json, 'items');
    if (!isSuccess(res)) throw googleRefusal('YouTube', res, 'your channel');
    const accounts: GrantedAccount[] = [];
    for (const channel of Array.isArray(items) ? items : []) {
      const id = jsonString(channel, 'id');
      if (!id) continue;
      const title = jsonString(channel, 'snippet', 'title') ?? id;
      accounts.push({
        externalId: id,
        accountName: jsonString(channel, 'snippet', 'customUrl') ?? title,
        displayName: title,
        avatarUrl: jsonString(channel, 'snippet', 'thumbnails', 'default', 'url') ?? null,
        ...grant,
        kind: 'YouTube channel',
      });
    }
    if (accounts.length === 0) {
      throw new OAuthFlowError('This Google account has no YouTube channel. Create one on YouTube (or pick the account that has it), then try again.');
    }
    return accounts;
  },
};
