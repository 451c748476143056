// Reddit live adapter: a text, link, image or video post to the subreddit a post names.
//
// Sources:
//   https://www.reddit.com/dev/api#POST_api_submit — POST /api/submit (form) api_type=json,
//     kind, sr, title, text | url, flair_id, flair_text, nsfw, spoiler, resubmit, sendreplies
//     → { json: { errors, data: { id, name, url } } }
//   https://www.reddit.com/dev/api#POST_api_comment — the first comment of a link or image post
//   Image posts use Reddit's media asset upload (what its own clients call; the public API
//   reference does not list it): POST /api/media/asset.json filepath, mimetype →
//   { args: { action: "//<bucket host>", fields: [{ name, value }] }, asset: { asset_id,
//   websocket_url } }; the file is POSTed to https:<action> as multipart/form-data with every
//   field and then the file; the image's URL is <action>/<key field>; then submit kind=image.
//   Video posts go the same way (as Reddit's clients and PRAW's Subreddit.submit_video do,
//   https://github.com/praw-dev/praw/blob/main/praw/models/reddit/subreddit.py): the video
//   (mimetype video/mp4, video/quicktime…) and its poster image (platformSettings.reddit.posterUrl)
//   each through its own asset lease and upload, then submit kind=video with url = the video's
//   URL and video_poster_url = the poster's.
//   https://github.com/reddit-archive/reddit/wiki/OAuth2 (refresh: grant_type=refresh_token,
//   HTTP Basic client authentication, User-Agent)
//
// An image or video submission is answered with a websocket address only (Reddit processes the
// media asynchronously): the post is looked for among the account's newest submissions (same
// subreddit and title) for a bounded number of polls, else the asset id is recorded with no link.
// A video post without a poster is refused at creation (the catalogue's requiredSettingsWithVideo)
// and again here before any upload. Galleries are not offered. Reddit has no idempotency key for
// submissions, so request.idempotencyKey is not used.
// The post text: a text post's body; for a link, image or video post (whose submission takes no
// body) it is posted as the author's first comment, best effort.
import { PlatformError, type PublishableConnection, type PublishRequest, type Publisher } from '../publisher';
import {
  apiEndpoint,
  bestEffort,
  callApi,
  jsonAt,
  jsonString,
  multipartBody,
  pollSettings,
  pollUntil,
  UPLOAD_TIMEOUT_MS,
  type AdapterOptions,
  type Fetcher,
} from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { downloadMedia, mediaItems } from '../media';
import { refreshTokenGrant, withAccessToken, type TokenRefresher } from '../token-refresh';
import { oauthApps } from '../oauth-apps';
import { REDDIT_DEFAULT_BASE_URL, redditBasicAuth, redditClient, redditUserAgent, type RedditClient } from './reddit-api';

const { media } = PLATFORM_CATALOGUE.reddit;

export interface RedditOptions extends AdapterOptions {
  clientId?: string;
  clientSecret?: string;
  /** Reddit's token endpoint (…/api/v1/access_token); the app's by default. */
  tokenUrl?: string;
}

type MediaFile = { bytes: Buffer; contentType: string; name: string };
type Submission = { kind: 'self' } | { kind: 'link'; url: string } | { kind: 'image'; file: MediaFile } | { kind: 'video'; file: MediaFile; poster: MediaFile };

export function createRedditPublisher(options: RedditOptions = {}): Publisher<'reddit'> {
  return {
    async publish(connection, request, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'REDDIT_API_BASE_URL', REDDIT_DEFAULT_BASE_URL);
      const { subreddit, title } = request.settings;
      if (!subreddit || !title) throw new PlatformError('Reddit posts need a subreddit and a title (platformSettings.reddit.subreddit, .title)');
      const submission = await submissionOf(fetch, request);
      const username = usernameOf(connection);

      return withAccessToken(connection, redditRefresher(fetch, options), tokens, async (token) => {
        const api = redditClient(fetch, baseUrl, token, options.timeoutMs);
        const sr = subreddit.replace(/^r\//, '');
        const asset = submission.kind === 'image' || submission.kind === 'video' ? await uploadMedia(api, fetch, submission.file, submission.kind) : null;
        const poster = submission.kind === 'video' ? await uploadMedia(api, fetch, submission.poster, 'poster image') : null;
        const submitted = await api.post('/api/submit', {
          api_type: 'json',
          kind: submission.kind,
          sr,
          title,
          text: submission.kind === 'self' ? request.content : undefined,
          url: submission.kind === 'link' ? submission.url : asset?.url,
          video_poster_url: poster?.url,
          flair_id: request.settings.flairId,
          flair_text: request.settings.flairText,
          nsfw: request.settings.nsfw,
          spoiler: request.settings.spoiler,
          resubmit: true,
          sendreplies: true,
        });
        const post = jsonString(submitted.json, 'json', 'data', 'name')
          ? { name: jsonString(submitted.json, 'json', 'data', 'name')!, url: jsonString(submitted.json, 'json', 'data', 'url') ?? null }
          : await findMediaPost(api, username, sr, title, options, submission.kind === 'video');
        if (!post) {
          // Reddit answers an image or video submission with a websocket address only, and the
          // post could not be found among the account's newest: Reddit has it, with no id to record.
          return { postedId: asset?.assetId ?? `${sr}:${title}`, permalink: null };
        }
        if (submission.kind !== 'self' && request.content.trim()) {
          await bestEffort('reddit', 'first comment', () => api.post('/api/comment', { api_type: 'json', thing_id: post.name, text: request.content }));
        }
        return { postedId: post.name, permalink: permalinkOf(post.url, post.name) };
      });
    },
  };
}

async function submissionOf(fetch: Fetcher, request: PublishRequest<'reddit'>): Promise<Submission> {
  const items = mediaItems(request);
  if (items.length > 1) throw new PlatformError('A Reddit post takes one image or one video');
  if (request.settings.url) {
    if (items.length) throw new PlatformError('A Reddit link post takes no image or video');
    return { kind: 'link', url: request.settings.url };
  }
  if (items.length === 0) return { kind: 'self' };
  const item = items[0]!;
  if (item.kind === 'video') {
    const { posterUrl } = request.settings;
    if (!posterUrl) throw new PlatformError('A Reddit video post needs a poster image (platformSettings.reddit.posterUrl)');
    const video = { ...(await downloadMedia(fetch, item, media.maxVideoBytes)), name: fileName(item.url, 'video.mp4') };
    const poster = { ...(await downloadMedia(fetch, { url: posterUrl, kind: 'image' }, media.maxImageBytes!)), name: fileName(posterUrl, 'poster.jpg') };
    return { kind: 'video', file: video, poster };
  }
  return { kind: 'image', file: { ...(await downloadMedia(fetch, item, media.maxImageBytes!)), name: fileName(item.url, 'image.jpg') } };
}

const fileName = (url: string, fallback: string) => new URL(url).pathname.split('/').pop() || fallback;

/** One file through Reddit's media asset lease and its upload host: the file's URL there. */
async function uploadMedia(api: RedditClient, fetch: Fetcher, file: MediaFile, what: string): Promise<{ url: string; assetId: string | null }> {
  const lease = await api.post('/api/media/asset.json', { filepath: file.name, mimetype: file.contentType });
  const action = jsonString(lease.json, 'args', 'action');
  const fields = jsonAt(lease.json, 'args', 'fields');
  if (!action || !Array.isArray(fields)) throw new PlatformError(`Reddit returned no upload lease for the ${what}`);
  const actionUrl = action.startsWith('//') ? `https:${action}` : action;
  const parts = fields.map((field) => ({ name: jsonString(field, 'name') ?? '', value: jsonString(field, 'value') ?? '' })).filter((p) => p.name);
  const key = parts.find((p) => p.name === 'key')?.value;
  if (!key) throw new PlatformError(`Reddit’s upload lease names no key for the ${what}`);
  const form = multipartBody([...parts, { name: 'file', value: file.bytes, filename: file.name, contentType: file.contentType }]);
  const upload = await callApi(fetch, actionUrl, {
    method: 'POST',
    headers: { 'content-type': form.contentType, 'user-agent': redditUserAgent() },
    body: form.body,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
  if (upload.status < 200 || upload.status >= 300) {
    // The upload host is Amazon S3, whose errors are XML: its Message, else the status.
    const message = /<Message>([^<]*)<\/Message>/.exec(upload.text)?.[1] ?? `Reddit's upload host answered HTTP ${upload.status}`;
    throw new PlatformError(message, { status: upload.status });
  }
  return { url: `${actionUrl.replace(/\/+$/, '')}/${key}`, assetId: jsonString(lease.json, 'asset', 'asset_id') ?? null };
}

/** The image or video post among the account's newest submissions (same subreddit and title). */
async function findMediaPost(api: RedditClient, username: string, sr: string, title: string, options: RedditOptions, video: boolean) {
  if (!username) return null;
  const polling = pollSettings(options);
  // A video is listed only once Reddit has processed it: every poll the adapters allow
  // (PLATFORM_POLL_*); an image appears at once, so three at most.
  const attempts = video ? polling.attempts : Math.min(polling.attempts, 3);
  const found = await pollUntil({ intervalMs: polling.intervalMs, attempts }, async () => {
    const listing = await api.get(`/user/${encodeURIComponent(username)}/submitted?sort=new&limit=10&raw_json=1`);
    const children = jsonAt(listing.json, 'data', 'children');
    for (const child of Array.isArray(children) ? children : []) {
      const data = jsonAt(child, 'data');
      if (jsonString(data, 'title') === title && jsonString(data, 'subreddit')?.toLowerCase() === sr.toLowerCase()) {
        const name = jsonString(data, 'name');
        const permalink = jsonString(data, 'permalink');
        if (name) return { name, url: permalink ? `https://www.reddit.com${permalink}` : null };
      }
    }
    return undefined;
  });
  return found ?? null;
}

/** The account's Reddit username, as the connect flow stored it. */
export function usernameOf(connection: Pick<PublishableConnection, 'accountName' | 'platformData'>): string {
  return typeof connection.platformData?.username === 'string' ? connection.platformData.username : connection.accountName.replace(/^u\//, '');
}

/** The post's address on reddit.com, as a publish records it. */
export function permalinkOf(url: string | null, name: string): string {
  if (url?.startsWith('https://www.reddit.com/')) return url;
  return `https://www.reddit.com/comments/${name.replace(/^t3_/, '')}/`;
}

export function redditRefresher(fetch: Fetcher, options: RedditOptions): TokenRefresher | null {
  const app = oauthApps.reddit();
  const clientId = options.clientId ?? app?.clientId;
  const clientSecret = options.clientSecret ?? app?.clientSecret;
  const tokenUrl = options.tokenUrl ?? app?.tokenUrl;
  if (!clientId || !clientSecret || !tokenUrl) return null;
  return refreshTokenGrant(fetch, {
    platform: 'Reddit',
    url: tokenUrl,
    client: {},
    headers: { authorization: redditBasicAuth(clientId, clientSecret), 'user-agent': redditUserAgent() },
    errorKeys: ['error', 'message'],
    requireOkStatus: true,
    timeoutMs: options.timeoutMs,
  });
}
