// TikTok live adapter: Content Posting API, Direct Post, media pulled by TikTok from our URLs.
//
// Sources:
//   https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info
//     POST /v2/post/publish/creator_info/query/ → privacy_level_options, comment/duet/stitch_disabled
//   https://developers.tiktok.com/doc/content-posting-api-reference-direct-post
//     POST /v2/post/publish/video/init/ { post_info: { title, privacy_level, disable_*… },
//     source_info: { source: 'PULL_FROM_URL', video_url } } → data.publish_id
//   https://developers.tiktok.com/doc/content-posting-api-reference-photo-post
//     POST /v2/post/publish/content/init/ { media_type: 'PHOTO', post_mode: 'DIRECT_POST',
//     post_info: { description, privacy_level, … }, source_info: { source: 'PULL_FROM_URL',
//     photo_images, photo_cover_index } }
//   https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status
//     POST /v2/post/publish/status/fetch/ { publish_id } → status PROCESSING_DOWNLOAD |
//     PROCESSING_UPLOAD | PUBLISH_COMPLETE | FAILED (fail_reason), publicaly_available_post_id
//   https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide (PULL_FROM_URL
//     needs the URL prefix verified for the app)
//   https://developers.tiktok.com/docs/en/oauth-refresh-a-user-access-token
//     POST /v2/oauth/token/ grant_type=refresh_token; access tokens last hours and the refresh
//     token rotates on every refresh (the new one must be stored)
//
// Privacy: TikTok requires a level the creator offers; Herald has no TikTok setting, so it
// picks PUBLIC_TO_EVERYONE when offered, else the first option (unaudited apps get SELF_ONLY).
// Moderation can hold the post id back for a long time: when polling ends first, the delivery
// succeeds with the publish_id and no permalink (TikTok has the post; it is not retried).
// The publish_id is recorded the moment TikTok gives it (context.checkpoint), so a publish cut
// off while polling can be settled by asking its status (tiktok-reconcile.ts). TikTok has the
// post by then: a failure to record it is logged, never thrown.
import { PlatformError, type Publisher } from '../publisher';
import { apiEndpoint, bestEffort, jsonAt, jsonString, pollSettings, pollUntil, type AdapterOptions, type ApiResponse, type Fetcher } from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { imagesOrOneVideo, mediaItems, type ImagesOrVideoRefusals, type MediaItem } from '../media';
import { refreshTokenGrant, withAccessToken, type TokenRefresher } from '../token-refresh';
import { TIKTOK_DEFAULT_BASE_URL, tiktokClient, type TikTokClient } from './tiktok-api';
import { oauthApps } from '../oauth-apps';

const { media } = PLATFORM_CATALOGUE.tiktok;
const MEDIA_REFUSALS: ImagesOrVideoRefusals = {
  mixed: 'A TikTok post takes one video or photos, not both or several videos',
  tooManyImages: `A TikTok photo post takes at most ${media.maxImages} photos`,
};

export interface TikTokOptions extends AdapterOptions {
  /** The app's client (TIKTOK_CLIENT_KEY / TIKTOK_CLIENT_SECRET), for refreshing tokens. */
  clientKey?: string;
  clientSecret?: string;
}

export interface CreatorInfo {
  username: string | null;
  privacyLevel: string;
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
}

export function createTikTokPublisher(options: TikTokOptions = {}): Publisher<'tiktok'> {
  return {
    async publish(connection, request, context) {
      const { fetch, baseUrl } = apiEndpoint(options, 'TIKTOK_API_BASE_URL', TIKTOK_DEFAULT_BASE_URL);
      const items = checkedMedia(mediaItems(request));
      const isVideo = items[0]!.kind === 'video';

      const refresher = tiktokRefresher(fetch, baseUrl, options);
      // The init creates the post: it runs under its own token scope, so a token refused while
      // polling is refreshed for the polls alone and never sends the init a second time.
      const started = await withAccessToken(connection, refresher, context.tokens, async (token) => {
        const api = tiktokClient(fetch, baseUrl, token, options.timeoutMs);
        const creator = await creatorInfo(api);
        const init = isVideo
          ? await api.post('/v2/post/publish/video/init/', videoBody(request.content, items[0]!, creator))
          : await api.post('/v2/post/publish/content/init/', photoBody(request.content, items, creator));
        const publishId = jsonString(init.json, 'data', 'publish_id');
        if (!publishId) throw new PlatformError('TikTok accepted the post but returned no publish_id');
        await bestEffort('tiktok', 'publish_id checkpoint', async () => context.checkpoint?.({ publishId, mediaType: isVideo ? 'video' : 'photo' }));
        return { publishId, creator, token };
      });

      const postId = await withAccessToken({ ...connection, accessToken: started.token }, refresher, context.tokens, async (token) =>
        waitForPost(tiktokClient(fetch, baseUrl, token, options.timeoutMs), started.publishId, pollSettings(options)),
      );
      const username = started.creator.username ?? connection.accountName.replace(/^@/, '');
      return {
        postedId: postId ?? started.publishId,
        permalink: postId ? tiktokPermalink(username, isVideo ? 'video' : 'photo', postId) : null,
      };
    },
  };
}

/** A published post's address: https://www.tiktok.com/@{username}/video|photo/{post id}. */
export function tiktokPermalink(username: string, kind: 'video' | 'photo', postId: string): string | null {
  return username ? `https://www.tiktok.com/@${username}/${kind}/${postId}` : null;
}

function checkedMedia(items: MediaItem[]): MediaItem[] {
  if (items.length === 0) throw new PlatformError('TikTok posts need a video or photos');
  return imagesOrOneVideo(items, media, MEDIA_REFUSALS);
}

export async function creatorInfo(api: TikTokClient): Promise<CreatorInfo> {
  const answer = await api.post('/v2/post/publish/creator_info/query/');
  const options = (jsonAt(answer.json, 'data', 'privacy_level_options') ?? []) as unknown[];
  const levels = options.filter((o): o is string => typeof o === 'string');
  const privacyLevel = levels.includes('PUBLIC_TO_EVERYONE') ? 'PUBLIC_TO_EVERYONE' : levels[0];
  if (!privacyLevel) throw new PlatformError('TikTok offered no privacy level for this account');
  return {
    username: jsonString(answer.json, 'data', 'creator_username') ?? null,
    privacyLevel,
    commentDisabled: jsonAt(answer.json, 'data', 'comment_disabled') === true,
    duetDisabled: jsonAt(answer.json, 'data', 'duet_disabled') === true,
    stitchDisabled: jsonAt(answer.json, 'data', 'stitch_disabled') === true,
  };
}

function videoBody(content: string, item: MediaItem, creator: CreatorInfo) {
  return {
    post_info: {
      title: content,
      privacy_level: creator.privacyLevel,
      disable_comment: creator.commentDisabled,
      disable_duet: creator.duetDisabled,
      disable_stitch: creator.stitchDisabled,
    },
    source_info: { source: 'PULL_FROM_URL', video_url: item.url },
  };
}

/** Photo titles are capped at 90 characters, so the whole text goes in the description. */
function photoBody(content: string, items: MediaItem[], creator: CreatorInfo) {
  return {
    media_type: 'PHOTO',
    post_mode: 'DIRECT_POST',
    post_info: { description: content, privacy_level: creator.privacyLevel, disable_comment: creator.commentDisabled, auto_add_music: true },
    source_info: { source: 'PULL_FROM_URL', photo_cover_index: 0, photo_images: items.map((i) => i.url) },
  };
}

/** The public post id once TikTok published it; null while moderation holds it back. */
async function waitForPost(api: TikTokClient, publishId: string, polling: { intervalMs: number; attempts: number }): Promise<string | null> {
  const check = async () => {
    const answer = await api.post('/v2/post/publish/status/fetch/', { publish_id: publishId });
    const status = jsonString(answer.json, 'data', 'status');
    if (status === 'FAILED') {
      throw new PlatformError(jsonString(answer.json, 'data', 'fail_reason') || 'TikTok could not publish the post');
    }
    if (status === 'PUBLISH_COMPLETE') return { postId: publicPostId(answer) };
    return undefined;
  };
  const settled = (await check()) ?? (await pollUntil(polling, check));
  return settled?.postId ?? null;
}

/**
 * The ids are int64 JSON numbers (in a field TikTok spells "publicaly"): JSON.parse would round
 * them, so the digits are read from the raw text.
 */
export function publicPostId(answer: ApiResponse): string | null {
  return /"publicaly_available_post_id"\s*:\s*\[\s*"?(\d+)/.exec(answer.text)?.[1] ?? null;
}

export function tiktokRefresher(fetch: Fetcher, baseUrl: string, options: TikTokOptions): TokenRefresher | null {
  const oauthApp = oauthApps.tiktok();
  const clientKey = options.clientKey ?? oauthApp?.clientId;
  const clientSecret = options.clientSecret ?? oauthApp?.clientSecret;
  if (!clientKey || !clientSecret) return null;
  return refreshTokenGrant(fetch, {
    platform: 'TikTok',
    url: `${baseUrl}/v2/oauth/token/`,
    client: { client_key: clientKey, client_secret: clientSecret },
    errorKeys: ['error'],
    requireOkStatus: false,
    timeoutMs: options.timeoutMs,
  });
}
