// Bluesky live adapter: writes an app.bsky.feed.post record to the account's repository on its
// PDS (platformData.pds), through XRPC with the session's access JWT.
//
// Sources:
//   https://docs.bsky.app/docs/advanced-guides/posts (createRecord, images, link cards)
//   https://docs.bsky.app/docs/advanced-guides/post-richtext (facets with UTF-8 byte offsets)
//   https://docs.bsky.app/docs/api/com-atproto-repo-upload-blob, …-create-record,
//   …/com-atproto-identity-resolve-handle, …/com-atproto-server-refresh-session
//   https://docs.bsky.app/docs/tutorials/video (a video as a blob in app.bsky.embed.video)
//   https://docs.bsky.app/docs/advanced-guides/posts#replies (a thread's part: reply { root, parent })
//
// Media: up to 4 images (uploadBlob, at most 1,000,000 bytes each) with alt text, or one video.
// The video goes up with uploadBlob to the PDS and rides in app.bsky.embed.video (the tutorial's
// simple path) rather than through the video service, which would need a second, service-auth
// token and a job to poll; the AppView processes the blob itself. Without media, the first link
// gets a card (app.bsky.embed.external: the page's title, description and og:image), fetched
// through the guarded client, best effort.
// Idempotency: the record key is derived from request.idempotencyKey (bluesky-richtext.ts), so
// a retry meets the record key taken; when getRecord then finds the record, that is the post.
import { randomUUID } from 'node:crypto';
import * as cheerio from 'cheerio';
import { PlatformError, TokenExpiredError, type Publisher, type PublishRequest, type PublishResult } from '../publisher';
import { defaultFetch, jsonAt, jsonString, UPLOAD_TIMEOUT_MS, type AdapterOptions, type Fetcher } from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { downloadMedia, imagesOrOneVideo, mediaItems, type MediaItem } from '../media';
import { withAccessToken } from '../token-refresh';
import { log } from '@/server/observability/log';
import { blueskyRefresher, xrpcClient, type XrpcClient } from './bluesky-api';
import { detectFacets, links, recordKeyFor } from './bluesky-richtext';
import { replyRefs } from './bluesky-refs';

const { media } = PLATFORM_CATALOGUE.bluesky;
const PAGE_MAX_BYTES = 1024 * 1024;

interface BlueskyAccount {
  did: string;
  handle: string;
  pds: string;
}

export function accountOf(
  connection: { externalId: string; accountName: string; platformData?: Readonly<Record<string, unknown>> },
  baseUrl?: string,
): BlueskyAccount {
  const data = connection.platformData ?? {};
  const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null);
  const pds = baseUrl ?? text('pds');
  if (!pds) throw new TokenExpiredError('No Bluesky server is stored for this account; reconnect it to publish.');
  return { did: text('did') ?? connection.externalId, handle: text('handle') ?? connection.accountName.replace(/^@/, ''), pds: pds.replace(/\/+$/, '') };
}

export function createBlueskyPublisher(options: AdapterOptions = {}): Publisher<'bluesky'> {
  return {
    async publish(connection, request, { tokens }) {
      const fetch = options.fetch ?? defaultFetch();
      // Each account lives on its own PDS: options.baseUrl (tests) stands in for it.
      const account = accountOf(connection, options.baseUrl);
      const items = imagesOrOneVideo(mediaItems(request), media, {
        mixed: 'A Bluesky post takes up to 4 images or one video, not both',
        tooManyImages: `A Bluesky post takes at most ${media.maxImages} images`,
      });
      const rkey = recordKeyFor(request.idempotencyKey ?? randomUUID());

      return withAccessToken(connection, blueskyRefresher(fetch, account.pds, options.timeoutMs), tokens, async (accessJwt) => {
        const api = xrpcClient(fetch, account.pds, accessJwt, options.timeoutMs);
        const record = await postRecord(api, fetch, request, items);
        try {
          await api.procedure('com.atproto.repo.createRecord', { repo: account.did, collection: 'app.bsky.feed.post', rkey, record });
        } catch (error) {
          // A PDS refuses a taken record key (its wording varies): when an earlier attempt for
          // this target wrote the record, that record is the post.
          if (error instanceof TokenExpiredError || !(await recordExists(api, account.did, rkey))) throw error;
        }
        return publishedPost(account, rkey);
      });
    },
  };
}

/** The post under record key `rkey`, as a publish records it: its at-uri and its address on bsky.app. */
export function publishedPost(account: Pick<BlueskyAccount, 'did' | 'handle'>, rkey: string): PublishResult {
  return { postedId: `at://${account.did}/app.bsky.feed.post/${rkey}`, permalink: `https://bsky.app/profile/${account.handle}/post/${rkey}` };
}

async function recordExists(api: XrpcClient, did: string, rkey: string): Promise<boolean> {
  try {
    const found = await api.query('com.atproto.repo.getRecord', { repo: did, collection: 'app.bsky.feed.post', rkey });
    return Boolean(jsonString(found.json, 'uri'));
  } catch {
    return false;
  }
}

async function postRecord(api: XrpcClient, fetch: Fetcher, request: PublishRequest<'bluesky'>, items: MediaItem[]): Promise<Record<string, unknown>> {
  const { content, settings } = request;
  const facets = await detectFacets(content, async (handle) => {
    try {
      return jsonString((await api.query('com.atproto.identity.resolveHandle', { handle })).json, 'did') ?? null;
    } catch (error) {
      if (error instanceof TokenExpiredError) throw error;
      return null;
    }
  });
  const embed = items.length
    ? await mediaEmbed(api, fetch, items, settings.altTexts ?? [])
    : settings.linkCard === false
      ? null
      : await linkCard(api, fetch, content);
  // A thread's later part answers the part before (and names the thread's first part as its root).
  const reply = request.replyTo ? await replyRefs(api, request.replyTo) : null;
  return {
    $type: 'app.bsky.feed.post',
    text: content,
    createdAt: new Date().toISOString(),
    ...(reply ? { reply } : {}),
    ...(facets.length ? { facets } : {}),
    ...(settings.languages?.length ? { langs: settings.languages } : {}),
    ...(embed ? { embed } : {}),
  };
}

async function uploadBlob(api: XrpcClient, bytes: Buffer, contentType: string): Promise<unknown> {
  const blob = jsonAt((await api.upload(bytes, contentType, UPLOAD_TIMEOUT_MS)).json, 'blob');
  if (!blob) throw new PlatformError('Bluesky accepted the upload but returned no blob');
  return blob;
}

async function mediaEmbed(api: XrpcClient, fetch: Fetcher, items: MediaItem[], altTexts: string[]): Promise<Record<string, unknown>> {
  if (items[0]!.kind === 'video') {
    const file = await downloadMedia(fetch, items[0]!, media.maxVideoBytes);
    const video = await uploadBlob(api, file.bytes, file.contentType);
    return { $type: 'app.bsky.embed.video', video, ...(altTexts[0]?.trim() ? { alt: altTexts[0].trim() } : {}) };
  }
  const images = [];
  for (const [index, item] of items.entries()) {
    const file = await downloadMedia(fetch, item, media.maxImageBytes);
    images.push({ alt: altTexts[index]?.trim() ?? '', image: await uploadBlob(api, file.bytes, file.contentType) });
  }
  return { $type: 'app.bsky.embed.images', images };
}

/** app.bsky.embed.external for the first link, from the page's Open Graph tags; null when the page cannot be read. */
async function linkCard(api: XrpcClient, fetch: Fetcher, content: string): Promise<Record<string, unknown> | null> {
  const [first] = links(content);
  if (!first) return null;
  try {
    const page = await fetch(first.value, { method: 'GET', headers: { accept: 'text/html' }, timeoutMs: 10_000, maxBytes: PAGE_MAX_BYTES });
    if (page.status < 200 || page.status >= 300) return null;
    const $ = cheerio.load(page.body.toString('utf8'));
    const meta = (name: string) => $(`meta[property="${name}"]`).attr('content') ?? $(`meta[name="${name}"]`).attr('content');
    const title = meta('og:title') ?? $('title').first().text().trim();
    const description = meta('og:description') ?? meta('description') ?? '';
    const external: Record<string, unknown> = { uri: first.value, title: title ?? '', description };
    const image = meta('og:image');
    if (image) {
      const thumb = await downloadMedia(fetch, { url: new URL(image, first.value).toString(), kind: 'image' }, media.maxImageBytes).catch(() => null);
      if (thumb) external.thumb = await uploadBlob(api, thumb.bytes, thumb.contentType);
    }
    return { $type: 'app.bsky.embed.external', external };
  } catch (error) {
    if (error instanceof TokenExpiredError) throw error;
    log.warn('bluesky', `no link card for ${new URL(first.value).host}`, error);
    return null;
  }
}
