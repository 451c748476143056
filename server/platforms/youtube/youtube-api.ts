// Calls to the YouTube Data API v3: the resumable upload of videos.insert.
//
// https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol
//   1. POST <base>/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status with the
//      video resource as JSON (Content-Type application/json; charset=UTF-8) and
//      X-Upload-Content-Length / X-Upload-Content-Type: the file's size and type → 200 with
//      the session URL in Location.
//   2. PUT <session URL> with the bytes → 201 (or 200) with the video resource.
//   3. After an interruption, PUT <session URL> with an empty body and Content-Range
//      bytes */<size> → 308 Resume Incomplete with Range: bytes=0-<last byte received> (no
//      Range: nothing received), or 201 when the upload had completed; then PUT the rest with
//      Content-Range bytes <first>-<last>/<size>. 404 or 410: the session expired.
import { PlatformError } from '../publisher';
import { callApi, UPLOAD_TIMEOUT_MS, withQuery, type ApiResponse, type Fetcher } from '../http';
import { googleError } from '../google/google-api';

export const YOUTUBE_DEFAULT_BASE_URL = 'https://www.googleapis.com';

/** Uploads a broken connection may interrupt before the publish gives up. */
const UPLOAD_ATTEMPTS = 4;

export interface YouTubeVideoResource {
  snippet: { title: string; description: string; tags?: string[]; categoryId?: string };
  status: { privacyStatus: 'public' | 'unlisted' | 'private'; selfDeclaredMadeForKids: boolean };
}

export interface YouTubeClient {
  /** Starts a resumable session; returns its URL. */
  startUpload(video: YouTubeVideoResource, size: number, contentType: string): Promise<string>;
  /** Sends the bytes, resuming after a 308 or a broken connection; returns the video resource. */
  upload(sessionUrl: string, bytes: Buffer, contentType: string): Promise<ApiResponse>;
}

export function youtubeClient(fetch: Fetcher, baseUrl: string, accessToken: string, timeoutMs?: number): YouTubeClient {
  const authorization = `Bearer ${accessToken}`;
  return {
    async startUpload(video, size, contentType) {
      const response = await callApi(fetch, withQuery(`${baseUrl}/upload/youtube/v3/videos`, { uploadType: 'resumable', part: 'snippet,status' }), {
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/json; charset=UTF-8',
          'x-upload-content-length': String(size),
          'x-upload-content-type': contentType,
        },
        json: video,
        timeoutMs,
      });
      const error = googleError(response, 'YouTube');
      if (error) throw error;
      const location = response.headers.get('location');
      if (!location) throw new PlatformError('YouTube started the upload but returned no session URL');
      return location;
    },

    async upload(sessionUrl, bytes, contentType) {
      let offset = 0;
      for (let attempt = 0; attempt < UPLOAD_ATTEMPTS; attempt++) {
        const rest = bytes.subarray(offset);
        const headers: Record<string, string> = { authorization, 'content-type': contentType };
        if (offset > 0) headers['content-range'] = `bytes ${offset}-${bytes.length - 1}/${bytes.length}`;
        let response: ApiResponse | null;
        try {
          response = await callApi(fetch, sessionUrl, { method: 'PUT', headers, body: rest, timeoutMs: UPLOAD_TIMEOUT_MS });
        } catch {
          response = null; // the connection broke: ask the session how much arrived
        }
        if (response === null || response.status >= 500) response = await uploadSessionStatus(fetch, sessionUrl, accessToken, bytes.length, timeoutMs);
        if (response.status === 200 || response.status === 201) return response;
        if (response.status !== 308) {
          throw googleError(response, 'YouTube') ?? new PlatformError(`YouTube answered HTTP ${response.status} to the upload`, { status: response.status });
        }
        offset = receivedBytes(response.headers.get('range'));
      }
      throw new PlatformError(`YouTube did not receive the whole video after ${UPLOAD_ATTEMPTS} attempts`);
    },
  };
}

// Asks a resumable session how its upload ended (step 4.1 of the protocol): an empty PUT with
// Content-Range bytes */<size> (bytes */* when the size is not known) → 308 with the Range
// received so far, 200 or 201 with the video resource once the upload completed, 404 or 410
// when the session expired. Sends nothing of the file.
export function uploadSessionStatus(fetch: Fetcher, sessionUrl: string, accessToken: string, size: number | null, timeoutMs?: number): Promise<ApiResponse> {
  return callApi(fetch, sessionUrl, {
    method: 'PUT',
    headers: { authorization: `Bearer ${accessToken}`, 'content-range': `bytes */${size ?? '*'}` },
    body: '',
    timeoutMs,
  });
}

/** The bytes the session holds, from a 308's Range header ("bytes=0-999" → 1000; absent → 0). */
export function receivedBytes(range: string | null): number {
  const last = /bytes=0-(\d+)/.exec(range ?? '')?.[1];
  return last === undefined ? 0 : Number(last) + 1;
}
