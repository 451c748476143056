// YouTube live adapter: one video per post, uploaded with the resumable upload protocol.
//
// Sources:
//   https://developers.google.com/youtube/v3/docs/videos/insert (scope youtube.upload; part
//     snippet,status; the video resource) and https://developers.google.com/youtube/v3/docs/videos
//   https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol (youtube-api.ts)
//   https://developers.google.com/youtube/v3/docs/errors (403 quotaExceeded, uploadLimitExceeded…:
//     Google's message is recorded verbatim)
//   https://developers.google.com/identity/protocols/oauth2/web-server#offline (refresh; the
//     refresh token does not rotate)
//
// The post text is the description; the title is the required `title` setting. YouTube has no
// idempotency key for uploads, so request.idempotencyKey is not used (delivery never retries a
// target by itself). The upload session's address (and the file's size) is reported through
// context.checkpoint once YouTube gives it, before the bytes go: an interrupted publish is then
// settled by asking that session (youtube-reconcile.ts). Videos uploaded by an API project that
// Google has not audited are locked private by YouTube whatever privacyStatus says; that is
// YouTube's rule, not an error.
// Shorts: YouTube decides itself from the video (square or vertical, up to 3 minutes); Herald
// does not inspect the file, so the `short` setting only chooses the /shorts/ permalink.
import { PlatformError, type Publisher, type PublishResult } from '../publisher';
import { apiEndpoint, jsonString, type AdapterOptions } from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { downloadMedia, mediaItems } from '../media';
import { withAccessToken } from '../token-refresh';
import { oauthApps } from '../oauth-apps';
import { googleRefresher, type GoogleClient } from '../google/google-api';
import { YOUTUBE_DEFAULT_BASE_URL, youtubeClient, type YouTubeVideoResource } from './youtube-api';

const { media } = PLATFORM_CATALOGUE.youtube;

export interface YouTubeOptions extends AdapterOptions, GoogleClient {}

export function createYouTubePublisher(options: YouTubeOptions = {}): Publisher<'youtube'> {
  return {
    async publish(connection, request, context) {
      const { fetch, baseUrl } = apiEndpoint(options, 'YOUTUBE_API_BASE_URL', YOUTUBE_DEFAULT_BASE_URL);
      const items = mediaItems(request);
      if (items.length !== 1 || items[0]!.kind !== 'video') throw new PlatformError('A YouTube post takes exactly one video');
      const { settings } = request;
      if (!settings.title) throw new PlatformError('YouTube videos need a title (platformSettings.youtube.title)');

      const video: YouTubeVideoResource = {
        snippet: {
          title: settings.title,
          description: request.content,
          ...(settings.tags?.length ? { tags: settings.tags } : {}),
          ...(settings.categoryId ? { categoryId: settings.categoryId } : {}),
        },
        status: { privacyStatus: settings.privacy ?? 'public', selfDeclaredMadeForKids: settings.madeForKids ?? false },
      };
      // Read before the token is used, so a refresh and retry does not read the file twice.
      const file = await downloadMedia(fetch, items[0]!, media.maxVideoBytes);
      const contentType = file.contentType.startsWith('video/') ? file.contentType : 'application/octet-stream';
      const refresher = googleRefresher(fetch, options, oauthApps.youtube());

      return withAccessToken(connection, refresher, context.tokens, async (token) => {
        const api = youtubeClient(fetch, baseUrl, token, options.timeoutMs);
        const session = await api.startUpload(video, file.bytes.length, contentType);
        // Recorded before any byte is sent: a publish cut off from here on is settled by asking
        // this session how the upload ended (youtube-reconcile.ts).
        await context.checkpoint?.({ uploadUrl: session, uploadBytes: String(file.bytes.length) });
        const uploaded = await api.upload(session, file.bytes, contentType);
        const id = jsonString(uploaded.json, 'id');
        if (!id) throw new PlatformError('YouTube received the video but returned no video id');
        return publishedVideo(id, settings.short);
      });
    },
  };
}

/** The video `id`, as a publish records it: its id and its address (a Short's under /shorts/). */
export function publishedVideo(id: string, short: boolean | undefined): PublishResult {
  return { postedId: id, permalink: short ? `https://www.youtube.com/shorts/${id}` : `https://www.youtube.com/watch?v=${id}` };
}
