// YouTube reconcile: an interrupted upload is settled by asking its resumable upload session how
// the upload ended, and failing that (no session recorded, or the session expired) by reading the
// channel's newest uploads and matching them on the title and the time. YouTube has no
// idempotency key for videos.insert, so asking is the only way to know.
//
// Sources:
//   https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol
//     Step 4.1, the status of an upload: PUT <session URL> with an empty body and Content-Range
//     bytes */<size> → 308 Resume Incomplete (Range: bytes=0-<last byte received>, or none: nothing
//     received) while the upload is incomplete; 200 or 201 with the video resource once it
//     completed; 404 Not Found when the session has expired.
//     The publisher records the session's URL and the file's size (ctx.checkpoint: uploadUrl,
//     uploadBytes) before it sends the bytes.
//   https://developers.google.com/youtube/v3/guides/implementation/videos (a channel's uploaded
//     videos: channels.list part=contentDetails → contentDetails.relatedPlaylists.uploads, then
//     playlistItems.list on that playlist)
//   https://developers.google.com/youtube/v3/docs/channels/list (GET /youtube/v3/channels
//     ?part=contentDetails&id=<channel id>; quota cost 1)
//   https://developers.google.com/youtube/v3/docs/playlistItems/list (GET /youtube/v3/playlistItems
//     ?part=snippet,contentDetails&playlistId=<uploads>&maxResults=<0..50> → { items: [{ snippet:
//     { publishedAt, title }, contentDetails: { videoId } }], nextPageToken? }; quota cost 1)
//   https://developers.google.com/youtube/v3/docs/errors (401 authError; 403 quotaExceeded,
//     insufficientPermissions: Google's message is carried as it is)
//
// A session is asked only at a Google address: it receives the account's token.
import { apiEndpoint, callApi, jsonAt, jsonString, withQuery, type ApiResponse, type Fetcher } from '../http';
import { googleError, googleErrorText, googleRefresher } from '../google/google-api';
import { oauthApps } from '../oauth-apps';
import { TokenExpiredError, type PublishableConnection } from '../publisher';
import { matchesIntent, RECENT_POSTS_TO_READ, type AttemptIntent, type Reconciled, type Reconciler } from '../reconcile';
import { withAccessToken } from '../token-refresh';
import { receivedBytes, uploadSessionStatus, YOUTUBE_DEFAULT_BASE_URL } from './youtube-api';
import { publishedVideo, type YouTubeOptions } from './youtube-publisher';

/** Clocks differ: a video uploaded up to a minute before the attempt began may still be its own. */
const CLOCK_SKEW_MS = 60_000;

interface Upload {
  videoId: string;
  title: string;
  publishedAt: Date | null;
}

interface Session {
  fetch: Fetcher;
  baseUrl: string;
  token: string;
  timeoutMs?: number;
}

export function createYouTubeReconciler(options: YouTubeOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent, { tokens }): Promise<Reconciled> {
      try {
        const { fetch, baseUrl } = apiEndpoint(options, 'YOUTUBE_API_BASE_URL', YOUTUBE_DEFAULT_BASE_URL);
        const refresher = googleRefresher(fetch, options, oauthApps.youtube());
        return await withAccessToken(connection, refresher, tokens, async (token) => {
          const session = { fetch, baseUrl, token, timeoutMs: options.timeoutMs };
          const fromSession = await askUploadSession(session, intent);
          if (fromSession.settled) return fromSession.settled;
          return askUploads(session, connection, intent, fromSession.note);
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return {
          outcome: 'unknown',
          evidence:
            error instanceof TokenExpiredError
              ? `YouTube refused the account’s token (${message}); reconnect the account, then settle this post`
              : `YouTube could not be asked about the upload: ${message}`,
        };
      }
    },
  };
}

/** The session's answer, or why it gave none (carried into the evidence of the uploads' answer). */
async function askUploadSession({ fetch, baseUrl, token, timeoutMs }: Session, intent: AttemptIntent): Promise<{ settled?: Reconciled; note: string }> {
  const uploadUrl = intent.checkpoint?.uploadUrl;
  if (!uploadUrl) return { note: 'No upload session was recorded for this attempt. ' };
  if (!isGoogleAddress(uploadUrl, baseUrl)) return { note: 'The upload session recorded is not at a YouTube address, so it was not asked. ' };
  const size = Number(intent.checkpoint?.uploadBytes);
  const known = Number.isSafeInteger(size) && size > 0 ? size : null;

  const response = await uploadSessionStatus(fetch, uploadUrl, token, known, timeoutMs);
  const id = jsonString(response.json, 'id');
  if ((response.status === 200 || response.status === 201) && id) {
    return { settled: found(id, intent, `YouTube’s upload session answered HTTP ${response.status} with video ${id}: the upload completed`), note: '' };
  }
  if (response.status === 308) {
    const received = receivedBytes(response.headers.get('range'));
    return {
      settled: {
        outcome: 'absent',
        evidence: `YouTube’s upload session is incomplete (308 Resume Incomplete, ${received}${known ? ` of ${known}` : ''} bytes received): no video was made from it`,
      },
      note: '',
    };
  }
  if (response.status === 404 || response.status === 410) return { note: `YouTube’s upload session has expired (HTTP ${response.status}). ` };
  const error = googleError(response, 'YouTube');
  if (error instanceof TokenExpiredError) throw error; // refreshed once, then asked again
  return {
    settled: { outcome: 'unknown', evidence: `YouTube’s upload session did not say how the upload ended: ${error?.message ?? `HTTP ${response.status}`}` },
    note: '',
  };
}

async function askUploads(
  { fetch, baseUrl, token, timeoutMs }: Session,
  connection: PublishableConnection,
  intent: AttemptIntent,
  note: string,
): Promise<Reconciled> {
  const title = typeof intent.settings.title === 'string' ? intent.settings.title.trim() : '';
  if (!title) return { outcome: 'unknown', evidence: `${note}The attempt recorded no title to look for among the channel’s uploads` };
  const get = async (path: string, params: Record<string, string | number>): Promise<ApiResponse | Reconciled> => {
    const response = await callApi(fetch, withQuery(`${baseUrl}${path}`, params), { headers: { authorization: `Bearer ${token}` }, timeoutMs });
    const error = googleError(response, 'YouTube');
    if (error instanceof TokenExpiredError) throw error;
    if (error) return { outcome: 'unknown', evidence: `${note}YouTube did not list the channel’s uploads: ${googleErrorText(response, 'YouTube')}` };
    return response;
  };

  const channels = await get('/youtube/v3/channels', { part: 'contentDetails', id: connection.externalId });
  if ('outcome' in channels) return channels;
  const playlistId = jsonString(channels.json, 'items', 0, 'contentDetails', 'relatedPlaylists', 'uploads');
  if (!playlistId) return { outcome: 'unknown', evidence: `${note}YouTube did not return the uploads playlist of channel ${connection.externalId}` };

  const listed = await get('/youtube/v3/playlistItems', { part: 'snippet,contentDetails', playlistId, maxResults: RECENT_POSTS_TO_READ });
  if ('outcome' in listed) return listed;
  const items = jsonAt(listed.json, 'items');
  const uploads = (Array.isArray(items) ? items : []).map(uploadOf).filter((u) => u !== null);

  const matches = uploads.filter((u) => matchesIntent({ content: title, startedAt: intent.startedAt }, { text: u.title, createdAt: u.publishedAt }));
  if (matches.length > 1) {
    return {
      outcome: 'unknown',
      evidence: `${note}The channel has ${matches.length} videos titled “${title}” uploaded since the attempt began (${matches.map((u) => u.videoId).join(', ')}): Herald cannot tell which one this post is`,
    };
  }
  const [video] = matches;
  if (video) {
    return found(
      video.videoId,
      intent,
      `${note}Video ${video.videoId}, added to the channel’s uploads ${video.publishedAt?.toISOString() ?? 'at an unstated time'}, has the title sent (read among the ${uploads.length} newest uploads)`,
    );
  }
  if (jsonString(listed.json, 'nextPageToken') && !reachesBefore(uploads, intent)) {
    return {
      outcome: 'unknown',
      evidence: `${note}None of the channel’s ${uploads.length} newest uploads is titled “${title}”, but all were added after the attempt began: the video may be among older ones Herald did not read`,
    };
  }
  return { outcome: 'absent', evidence: `${note}None of the channel’s uploads since the attempt began is titled “${title}”` };
}

function found(videoId: string, intent: AttemptIntent, evidence: string): Reconciled {
  return { outcome: 'found', result: publishedVideo(videoId, intent.settings.short === true), evidence };
}

/** Whether the page, newest first, runs back to an upload older than the attempt: every later one was read. */
function reachesBefore(uploads: Upload[], intent: AttemptIntent): boolean {
  const times = uploads.map((u) => u.publishedAt?.getTime() ?? Number.NaN);
  const newestFirst = times.every((t, i) => !Number.isNaN(t) && (i === 0 || t <= times[i - 1]!));
  return newestFirst && times.length > 0 && times.at(-1)! < intent.startedAt.getTime() - CLOCK_SKEW_MS;
}

function uploadOf(item: unknown): Upload | null {
  const videoId = jsonString(item, 'contentDetails', 'videoId') ?? jsonString(item, 'snippet', 'resourceId', 'videoId');
  const title = jsonString(item, 'snippet', 'title');
  if (!videoId || title === undefined) return null;
  const published = new Date(jsonString(item, 'snippet', 'publishedAt') ?? '');
  return { videoId, title, publishedAt: Number.isNaN(published.getTime()) ? null : published };
}

/** The session's address is YouTube's API host (or one of Google's API hosts), not anywhere else. */
function isGoogleAddress(uploadUrl: string, baseUrl: string): boolean {
  try {
    const url = new URL(uploadUrl);
    return url.origin === new URL(baseUrl).origin || (url.protocol === 'https:' && url.hostname.endsWith('.googleapis.com'));
  } catch {
    return false;
  }
}
