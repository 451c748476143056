// X (Twitter) live adapter: X API v2 with an OAuth 2.0 user access token (PKCE flow).
//
// Sources:
//   https://docs.x.com/x-api/posts/creation-of-a-post and https://docs.x.com/x-api/posts/manage-tweets
//     POST /2/tweets { text, reply: { in_reply_to_tweet_id }, quote_tweet_id, media: { media_ids } }
//     → 201 { data: { id, text } }
//   https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code
//     access tokens last two hours; with offline.access a refresh token is issued:
//     POST /2/oauth2/token grant_type=refresh_token&refresh_token=…&client_id=…
//     (confidential clients authenticate with HTTP Basic client_id:client_secret)
//   media: see x-media-upload.ts
//
// Permalink: https://x.com/<handle>/status/<id>
import { PlatformError, type PublishableConnection, type Publisher, type PublishResult } from '../publisher';
import { apiEndpoint, jsonString, pollSettings, type AdapterOptions, type Fetcher } from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { imagesOrOneVideo, mediaItems, type ImagesOrVideoRefusals } from '../media';
import { refreshTokenGrant, withAccessToken, type TokenRefresher } from '../token-refresh';
import { X_DEFAULT_BASE_URL, X_ERROR_KEYS, xClient } from './x-api';
import { uploadMedia } from './x-media-upload';
import { oauthApps } from '../oauth-apps';

const { media } = PLATFORM_CATALOGUE.twitter;
const MEDIA_REFUSALS: ImagesOrVideoRefusals = {
  mixed: `A post on X takes up to ${media.maxImages} images or one video, not both`,
  tooManyImages: `A post on X takes at most ${media.maxImages} images`,
};

export interface TwitterOptions extends AdapterOptions {
  /** The app's OAuth 2.0 client (X_CLIENT_ID; X_CLIENT_SECRET for a confidential client). */
  clientId?: string;
  clientSecret?: string;
}

export function createTwitterPublisher(options: TwitterOptions = {}): Publisher<'twitter'> {
  return {
    async publish(connection, request, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'X_API_BASE_URL', X_DEFAULT_BASE_URL);
      const items = imagesOrOneVideo(mediaItems(request), media, MEDIA_REFUSALS);
      // A thread's later part answers the part before; otherwise the post's own replyTo setting.
      const replyTo = request.replyTo ?? request.settings.replyTo;
      const { quoteTweet } = request.settings;

      return withAccessToken(connection, xRefresher(fetch, baseUrl, options), tokens, async (token) => {
        const api = xClient(fetch, baseUrl, token, options.timeoutMs);
        const mediaIds: string[] = [];
        for (const item of items) mediaIds.push(await uploadMedia({ api, fetch, polling: pollSettings(options) }, item));

        const created = await api.call('/2/tweets', {
          method: 'POST',
          json: {
            text: request.content,
            ...(replyTo ? { reply: { in_reply_to_tweet_id: replyTo } } : {}),
            ...(quoteTweet ? { quote_tweet_id: quoteTweet } : {}),
            ...(mediaIds.length ? { media: { media_ids: mediaIds } } : {}),
          },
        });
        const id = jsonString(created.json, 'data', 'id');
        if (!id) throw new PlatformError('X accepted the post but returned no id');
        return publishedPost(connection, id);
      });
    },
  };
}

/** The post `id` of the account, as a publish records it: its id and its address on x.com. */
export function publishedPost(connection: Pick<PublishableConnection, 'accountName'>, id: string): PublishResult {
  const handle = connection.accountName.replace(/^@/, '');
  return { postedId: id, permalink: handle ? `https://x.com/${handle}/status/${id}` : `https://x.com/i/web/status/${id}` };
}

/** A public client (no secret) sends only its id; a confidential one also authenticates with HTTP Basic. */
export function xRefresher(fetch: Fetcher, baseUrl: string, options: TwitterOptions): TokenRefresher | null {
  const oauthApp = oauthApps.twitter();
  const clientId = options.clientId ?? oauthApp?.clientId;
  const clientSecret = options.clientSecret ?? oauthApp?.clientSecret;
  if (!clientId) return null;
  return refreshTokenGrant(fetch, {
    platform: 'X',
    url: `${baseUrl}/2/oauth2/token`,
    client: { client_id: clientId },
    headers: clientSecret ? { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` } : undefined,
    errorKeys: X_ERROR_KEYS,
    requireOkStatus: true,
    timeoutMs: options.timeoutMs,
  });
}
