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
import { PlatformError, TokenExpiredError, type PublishableConnection, type Publisher, type PublishRequest, type PublishResult } from '../publisher';
import { baseUrlFromEnv, callApi, defaultFetch, isSuccess, jsonString, pollSettings, type AdapterOptions, type Fetcher } from '../http';
import { mediaItems, type MediaItem } from '../media';
import { withAccessToken, type TokenRefresher } from '../token-refresh';
import { X_DEFAULT_BASE_URL, xClient, xErrorMessage } from './x-api';
import { uploadMedia } from './x-media-upload';

const MAX_IMAGES = 4;

export interface TwitterOptions extends AdapterOptions {
  /** The app's OAuth 2.0 client (X_CLIENT_ID; X_CLIENT_SECRET for a confidential client). */
  clientId?: string;
  clientSecret?: string;
}

export function createTwitterPublisher(options: TwitterOptions = {}): Publisher {
  return {
    async publish(connection: PublishableConnection, request: PublishRequest): Promise<PublishResult> {
      const fetch = options.fetch ?? defaultFetch();
      const baseUrl = options.baseUrl ?? baseUrlFromEnv('X_API_BASE_URL', X_DEFAULT_BASE_URL);
      const items = checkedMedia(mediaItems(request));
      const replyTo = typeof request.settings.replyTo === 'string' ? request.settings.replyTo : undefined;
      const quoteTweet = typeof request.settings.quoteTweet === 'string' ? request.settings.quoteTweet : undefined;

      return withAccessToken(connection, xRefresher(fetch, baseUrl, options), async (token) => {
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
        if (!id) throw new PlatformError('X accepted the post but returned no id', { retryable: false });
        const handle = connection.accountName.replace(/^@/, '');
        return { postedId: id, permalink: handle ? `https://x.com/${handle}/status/${id}` : `https://x.com/i/web/status/${id}` };
      });
    },
  };
}

function checkedMedia(items: MediaItem[]): MediaItem[] {
  const videos = items.filter((i) => i.kind === 'video').length;
  if (videos > 0 && items.length > 1) throw new PlatformError('A post on X takes up to 4 images or one video, not both', { retryable: false });
  if (items.length > MAX_IMAGES) throw new PlatformError(`A post on X takes at most ${MAX_IMAGES} images`, { retryable: false });
  return items;
}

function xRefresher(fetch: Fetcher, baseUrl: string, options: TwitterOptions): TokenRefresher | null {
  const clientId = options.clientId ?? process.env.X_CLIENT_ID;
  const clientSecret = options.clientSecret ?? process.env.X_CLIENT_SECRET;
  if (!clientId) return null;
  return {
    uses: 'refresh_token',
    aheadMs: 60_000,
    async refresh(refreshToken) {
      const headers: Record<string, string> = {};
      if (clientSecret) headers.authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      const response = await callApi(fetch, `${baseUrl}/2/oauth2/token`, {
        headers,
        form: { refresh_token: refreshToken, grant_type: 'refresh_token', client_id: clientId },
        timeoutMs: options.timeoutMs,
      });
      const accessToken = jsonString(response.json, 'access_token');
      if (!isSuccess(response) || !accessToken) {
        const message = jsonString(response.json, 'error_description') || xErrorMessage(response);
        if (response.status === 429 || response.status >= 500) throw new PlatformError(message, { retryable: true, status: response.status });
        throw new TokenExpiredError(message);
      }
      return {
        accessToken,
        refreshToken: jsonString(response.json, 'refresh_token') ?? null,
        expiresInSeconds: Number(jsonString(response.json, 'expires_in')) || null,
      };
    },
  };
}
