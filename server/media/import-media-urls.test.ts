// mediaUrls: real HTTPS downloads from a local origin with a self-signed certificate, through
// a guarded outbound client (simulated DNS, the origin's host allowed), into the local store.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeSampleMp4 } from '@/e2e/fixtures/sample-mp4';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { createOutboundClient, OutboundFailedError, type OutboundClient, type Resolver } from '@/server/outbound';
import { createWorkspace } from '@/server/testing/fixtures';
import { importMediaUrls, MAX_MEDIA_URLS } from './import-media-urls';
import { setMediaFetcherForTests } from './media-fetcher';
import { MB, storageKey } from './media-rules';
import { LocalDiskStorage, setMediaStorageForTests } from './storage';
import { startMediaOrigin, type MediaOrigin } from './testing/media-origin';
import { makePng } from './testing/sample-images';

const png = makePng(120, 80);
const mp4 = makeSampleMp4({ width: 480, height: 270, durationMs: 9_000 });
const pngHead = makePng(1, 1).subarray(0, 16);
const mp4Head = mp4.subarray(0, 16);

let origin: MediaOrigin;
let client: OutboundClient;
let dir: string;
let local: LocalDiskStorage;
let workspaceId: string;
const at = (p: string) => `https://media.test:${origin.port}${p}`;

const fakeDns: Resolver = async (hostname) => {
  const answers: Record<string, string> = { 'media.test': '127.0.0.1', 'private.test': '10.0.0.7' };
  const address = answers[hostname];
  if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return [{ address, family: 4 }];
};

beforeAll(async () => {
  origin = await startMediaOrigin({
    '/photo.png': { body: png, headers: { 'content-type': 'image/png' } },
    '/photo-without-type': { body: png, headers: { 'content-type': 'application/octet-stream' } },
    '/clip.mp4': { body: mp4, headers: { 'content-type': 'video/mp4' } },
    '/page.html': { body: '<!DOCTYPE html><html><body>Not a picture</body></html>', headers: { 'content-type': 'text/html' } },
    '/data.json': { body: '{"image":"elsewhere"}', headers: { 'content-type': 'application/json' } },
    '/moved.png': { status: 302, headers: { location: '/photo.png' }, body: '' },
    '/broken.png': { status: 500, body: 'oops' },
    '/huge.png': { stream: { prefix: pngHead, bytes: 15 * MB + 1 } },
    '/video-16mb.mp4': { stream: { prefix: mp4Head, bytes: 16 * MB } },
    '/video-26mb.mp4': { stream: { prefix: mp4Head, bytes: 26 * MB } },
  });
  // The origin's host is allowed past the private-address rule; nothing else is.
  client = createOutboundClient({ resolve: fakeDns, ca: origin.cert, allowHosts: ['media.test'] });
  setMediaFetcherForTests(client);
  dir = mkdtempSync(path.join(os.tmpdir(), 'herald-media-import-'));
});
afterAll(async () => {
  setMediaFetcherForTests(undefined);
  setMediaStorageForTests(undefined);
  await client.close();
  await origin.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  local = new LocalDiskStorage({ root: path.join(dir, 'blobs'), baseUrl: 'http://herald.test', secret: 'import-test' });
  setMediaStorageForTests(local);
  workspaceId = (await createWorkspace()).id;
});

async function failure(urls: string[]): Promise<AppError> {
  const error = await importMediaUrls(workspaceId, urls).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const storedFiles = () => (existsSync(path.join(local.root, workspaceId)) ? readdirSync(path.join(local.root, workspaceId)) : []);

describe('importMediaUrls', () => {
  it('downloads images and videos into storage as ready assets', async () => {
    const media = await importMediaUrls(workspaceId, [at('/photo.png'), at('/clip.mp4'), at('/photo-without-type')]);
    expect(media).toEqual([
      {
        assetId: expect.any(String),
        url: expect.stringMatching(/^http:\/\/herald\.test\/media\/files\/.+\.png$/),
        kind: 'image',
        contentType: 'image/png',
        bytes: png.length,
        durationMs: null,
        imported: true,
      },
      {
        assetId: expect.any(String),
        url: expect.stringMatching(/\.mp4$/),
        kind: 'video',
        contentType: 'video/mp4',
        bytes: mp4.length,
        durationMs: 9_000,
        imported: true,
      },
      expect.objectContaining({ kind: 'image', contentType: 'image/png' }),
    ]);
    const image = await db.mediaAsset.findUniqueOrThrow({ where: { id: media[0]!.assetId } });
    expect(image).toMatchObject({
      workspaceId,
      status: 'ready',
      source: 'url',
      sourceUrl: at('/photo.png'),
      url: media[0]!.url,
      width: 120,
      height: 80,
      completedAt: expect.any(Date),
    });
    const video = await db.mediaAsset.findUniqueOrThrow({ where: { id: media[1]!.assetId } });
    expect(video).toMatchObject({ kind: 'video', width: 480, height: 270, durationMs: 9_000 });
    expect(await readFile(path.join(local.root, video.storageKey))).toEqual(mp4);
  });

  it('downloads a URL listed twice once', async () => {
    const before = origin.hits('/photo.png');
    const media = await importMediaUrls(workspaceId, [at('/photo.png'), at('/photo.png')]);
    expect(media[0]).toEqual(media[1]);
    expect(origin.hits('/photo.png') - before).toBe(1);
  });

  it('uses a URL already in our storage as-is', async () => {
    const [first] = await importMediaUrls(workspaceId, [at('/photo.png')]);
    const count = await db.mediaAsset.count();
    const [again] = await importMediaUrls(workspaceId, [first!.url]);
    // The same asset, and not a new import (a failing post must not delete it).
    const { imported, ...existing } = first!;
    expect(imported).toBe(true);
    expect(again).toEqual(existing);
    expect(await db.mediaAsset.count()).toBe(count);
  });

  it('refuses our storage URL of another workspace’s asset', async () => {
    const [theirs] = await importMediaUrls((await createWorkspace()).id, [at('/photo.png')]);
    const error = await failure([theirs!.url]);
    expect(error).toMatchObject({ code: 'MEDIA_URL_REFUSED', field: 'mediaUrls[0]' });
  });

  it.each([
    ['plain http', () => `http://media.test:${origin.port}/photo.png`, 'Only https'],
    ['a private address behind a name', () => `https://private.test:${origin.port}/photo.png`, '10.0.0.7'],
    ['a loopback literal', () => `https://127.0.0.1:${origin.port}/photo.png`, 'private or reserved'],
    ['a host that does not resolve', () => `https://nowhere.test:${origin.port}/photo.png`, 'could not be reached'],
    ['a 404 answer', () => at('/missing.png'), 'HTTP 404'],
    ['a 500 answer', () => at('/broken.png'), 'HTTP 500'],
    ['a redirect', () => at('/moved.png'), 'redirects are not followed'],
    ['an HTML page', () => at('/page.html'), 'an HTML page'],
    ['JSON', () => at('/data.json'), 'JSON'],
  ])('refuses %s with MEDIA_URL_REFUSED naming the URL and its index', async (_label, url, reason) => {
    const error = await failure([at('/photo.png'), url()]);
    expect(error.code).toBe('MEDIA_URL_REFUSED');
    expect(error.status).toBe(400);
    expect(error.field).toBe('mediaUrls[1]');
    expect(error.message).toContain(url());
    expect(error.message).toContain(reason);
  });

  it('maps a timeout to MEDIA_URL_REFUSED', async () => {
    setMediaFetcherForTests({ stream: async () => Promise.reject(new OutboundFailedError('timeout', 'media.test did not answer within 60000 ms.')) });
    try {
      const error = await failure([at('/photo.png')]);
      expect(error).toMatchObject({ code: 'MEDIA_URL_REFUSED', field: 'mediaUrls[0]', message: expect.stringContaining('did not answer within 60 seconds') });
    } finally {
      setMediaFetcherForTests(client);
    }
  });

  it('caps images at 15 MB and videos at 25 MB (MEDIA_TOO_LARGE naming the URL)', async () => {
    const image = await failure([at('/huge.png')]);
    expect(image).toMatchObject({ code: 'MEDIA_TOO_LARGE', field: 'mediaUrls[0]', message: expect.stringContaining(at('/huge.png')) });
    expect(image.message).toContain('15 MB');
    const video = await failure([at('/video-26mb.mp4')]);
    expect(video).toMatchObject({ code: 'MEDIA_TOO_LARGE', field: 'mediaUrls[0]', message: expect.stringContaining('25 MB') });
    expect(storedFiles()).toEqual([]);
  });

  it('accepts a video over the image cap and under the video cap (and refuses it if unreadable)', async () => {
    // 16 MB of an ftyp header and zeros: within the cap, but not a movie.
    const error = await failure([at('/video-16mb.mp4')]);
    expect(error).toMatchObject({ code: 'MEDIA_URL_REFUSED', message: expect.stringContaining('movie header') });
    expect(storedFiles()).toEqual([]);
  });

  it('is all or nothing: a failing URL removes what the call already stored', async () => {
    const rowsBefore = await db.mediaAsset.count({ where: { workspaceId } });
    const error = await failure([at('/photo.png'), at('/clip.mp4'), at('/photo.png?again'), at('/page.html')]);
    expect(error.field).toBe('mediaUrls[3]');
    expect(await db.mediaAsset.count({ where: { workspaceId } })).toBe(rowsBefore);
    expect(storedFiles()).toEqual([]);
  });

  it(`refuses more than ${MAX_MEDIA_URLS} URLs`, async () => {
    const error = await failure(Array.from({ length: MAX_MEDIA_URLS + 1 }, (_, i) => at(`/photo.png?${i}`)));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'mediaUrls' });
  });

  it('answers MEDIA_STORAGE_UNAVAILABLE without fetching when storage cannot be written', async () => {
    const file = path.join(dir, 'a-file');
    writeFileSync(file, 'x');
    setMediaStorageForTests(new LocalDiskStorage({ root: path.join(file, 'blobs'), baseUrl: 'http://herald.test', secret: 'import-test' }));
    const before = origin.hits('/clip.mp4');
    const error = await failure([at('/clip.mp4')]);
    expect(origin.hits('/clip.mp4')).toBe(before);
    expect(error.code).toBe('MEDIA_STORAGE_UNAVAILABLE');
    expect(error.status).toBe(503);
    expect(await db.mediaAsset.count({ where: { workspaceId } })).toBe(0);
  });

  it('returns nothing for no URLs', async () => {
    expect(await importMediaUrls(workspaceId, [])).toEqual([]);
  });

  it('keys objects by workspace and asset', async () => {
    const [m] = await importMediaUrls(workspaceId, [at('/clip.mp4')]);
    expect((await db.mediaAsset.findUniqueOrThrow({ where: { id: m!.assetId } })).storageKey).toBe(storageKey(workspaceId, m!.assetId, 'video/mp4'));
  });
});
