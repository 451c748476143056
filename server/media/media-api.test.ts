// /media through real HTTP: the REST routes and the local store's upload and file routes on
// one server, real byte uploads, then the same flow against Vercel Blob's stand-in.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSampleMp4, SAMPLE_MP4 } from '@/e2e/fixtures/sample-mp4';
import { db } from '@/server/db/client';
import { apiClient } from '@/server/testing/api-client';
import { startTestServer, type TestServer } from '@/server/testing/api-server';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { checkDocumentedOutcomes } from '@/server/testing/public-api';
import { handleMediaRoutes } from './http';
import { MB } from './media-rules';
import { LocalDiskStorage, mediaStorage, setMediaStorageForTests, VercelBlobStorage } from './storage';
import { createUploadToken } from './storage/upload-token';
import { startBlobStandIn, type BlobStandIn } from './testing/blob-api-stand-in';
import { makeJpeg, makePng } from './testing/sample-images';

const outcomes = checkDocumentedOutcomes();
let server: TestServer;
let api: ReturnType<typeof apiClient>;
let dir: string;
let local: LocalDiskStorage;
let secret: string;
let workspaceId: string;
const SIGNING_SECRET = 'media-api-test-secret';

beforeAll(async () => {
  server = await startTestServer({ '/public/v1': outcomes.handle, '/media': handleMediaRoutes });
  api = apiClient(server.url);
  dir = mkdtempSync(path.join(os.tmpdir(), 'herald-media-api-'));
});
afterAll(async () => {
  setMediaStorageForTests(undefined);
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  local = new LocalDiskStorage({ root: path.join(dir, 'blobs'), baseUrl: server.url, secret: SIGNING_SECRET });
  setMediaStorageForTests(local);
  const ws = await createWorkspaceWithKey();
  secret = ws.secret;
  workspaceId = ws.workspace.id;
});

type Upload = { url: string; method: string; headers: Record<string, string>; expiresAt: string };

async function requestUpload(body: unknown, key = secret) {
  return api('POST', '/media/upload-url', { key, body });
}

function put(upload: Upload, bytes: Buffer, change: (h: Record<string, string>) => void = () => undefined) {
  const headers = { ...upload.headers };
  delete headers['Content-Length']; // fetch sends the body's real length
  change(headers);
  return fetch(upload.url, { method: upload.method, headers, body: new Uint8Array(bytes) });
}

/** upload-url → PUT → complete. */
async function uploadAndComplete(contentType: string, bytes: Buffer, kind: 'image' | 'video' = contentType.startsWith('image/') ? 'image' : 'video') {
  const created = await requestUpload({ kind, contentType, bytes: bytes.length });
  expect(created.status, created.text).toBe(201);
  const stored = await put(created.body.data.upload, bytes);
  expect(stored.status, await stored.clone().text()).toBe(200);
  const completed = await api('POST', `/media/${created.body.data.id}/complete`, { key: secret });
  return { created, completed };
}

describe('POST /media/upload-url', () => {
  it('creates an asset awaiting its bytes, with a presigned PUT target', async () => {
    const res = await requestUpload({ kind: 'image', contentType: 'image/png', bytes: 1234 });
    expect(res.status).toBe(201);
    const { data, warnings } = res.body;
    expect(warnings).toEqual([]);
    expect(data).toMatchObject({
      id: expect.any(String),
      kind: 'image',
      contentType: 'image/png',
      bytes: 1234,
      status: 'awaiting_upload',
      source: 'upload',
      sourceUrl: null,
      url: null,
      durationMs: null,
      width: null,
      height: null,
      completedAt: null,
      upload: { method: 'PUT', headers: { 'Content-Type': 'image/png', 'Content-Length': '1234' } },
    });
    expect(data.upload.url).toMatch(new RegExp(`^${server.url}/media/upload/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}$`));
    const expiresIn = Date.parse(data.upload.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(59 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(60 * 60_000);
    expect(await db.mediaAsset.findUnique({ where: { id: data.id } })).toMatchObject({
      workspaceId,
      status: 'awaiting_upload',
      storageKey: `${workspaceId}/${data.id}.png`,
    });
  });

  it.each(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4', 'video/quicktime'])('accepts %s', async (contentType) => {
    const kind = contentType.startsWith('image/') ? 'image' : 'video';
    expect((await requestUpload({ kind, contentType, bytes: 10 })).status).toBe(201);
  });

  it.each(['image/svg+xml', 'image/heic', 'video/webm', 'application/pdf', 'text/html', 'image/*'])(
    'refuses %s with VALIDATION_FAILED',
    async (contentType) => {
      const res = await requestUpload({ kind: 'image', contentType, bytes: 10 });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'contentType' });
      expect(res.body.error.message).toContain('image/jpeg, image/png, image/gif, image/webp, video/mp4, video/quicktime');
    },
  );

  it('refuses a kind that does not match the content type', async () => {
    for (const body of [
      { kind: 'image', contentType: 'video/mp4', bytes: 10 },
      { kind: 'video', contentType: 'image/png', bytes: 10 },
    ]) {
      const res = await requestUpload(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'contentType' });
    }
  });

  it('compares content types without case or parameters', async () => {
    const res = await requestUpload({ kind: 'image', contentType: 'Image/PNG', bytes: 10 });
    expect(res.status).toBe(201);
    expect(res.body.data.contentType).toBe('image/png');
  });

  it('refuses images over 15 MB and videos over 500 MB with MEDIA_TOO_LARGE (1 MB = 1024 × 1024 bytes)', async () => {
    expect((await requestUpload({ kind: 'image', contentType: 'image/jpeg', bytes: 15 * MB })).status).toBe(201);
    expect((await requestUpload({ kind: 'video', contentType: 'video/mp4', bytes: 500 * MB })).status).toBe(201);
    for (const body of [
      { kind: 'image', contentType: 'image/jpeg', bytes: 15 * MB + 1 },
      { kind: 'video', contentType: 'video/mp4', bytes: 500 * MB + 1 },
    ]) {
      const res = await requestUpload(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'MEDIA_TOO_LARGE', field: 'bytes' });
    }
  });

  it('validates the body strictly', async () => {
    const unknown = await requestUpload({ kind: 'image', contentType: 'image/png', bytes: 10, name: 'x.png' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('name is not allowed');
    for (const body of [
      { contentType: 'image/png', bytes: 10 },
      { kind: 'audio', contentType: 'image/png', bytes: 10 },
      { kind: 'image', contentType: 'image/png', bytes: 0 },
      { kind: 'image', contentType: 'image/png', bytes: 1.5 },
    ]) {
      expect((await requestUpload(body)).status).toBe(400);
    }
  });

  it('needs media:write', async () => {
    const { secret: readOnly } = await createWorkspaceWithKey({ scopes: ['posts:read', 'posts:write'] });
    const res = await requestUpload({ kind: 'image', contentType: 'image/png', bytes: 10 }, readOnly);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'SCOPE_MISSING', message: expect.stringContaining('media:write') });
  });
});

describe('upload, complete, serve', () => {
  it('completes an image: ready, served at its URL with its type and length, size read from the header', async () => {
    const png = makePng(64, 48);
    const { created, completed } = await uploadAndComplete('image/png', png);
    expect(completed.status, completed.text).toBe(201);
    const id = created.body.data.id;
    expect(completed.body).toEqual({
      data: expect.objectContaining({
        id,
        kind: 'image',
        contentType: 'image/png',
        bytes: png.length,
        status: 'ready',
        width: 64,
        height: 48,
        durationMs: null,
        url: `${server.url}/media/files/${workspaceId}/${id}.png`,
        completedAt: expect.any(String),
      }),
      warnings: [],
    });
    expect('upload' in completed.body.data).toBe(false);

    const served = await fetch(completed.body.data.url!);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-length')).toBe(String(png.length));
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  it('completes a video with the duration and size read from the container', async () => {
    const mp4 = await readFile(path.resolve(import.meta.dirname, '../../e2e/fixtures', SAMPLE_MP4.file));
    const { completed } = await uploadAndComplete('video/mp4', mp4);
    expect(completed.status, completed.text).toBe(201);
    expect(completed.body.data).toMatchObject({
      kind: 'video',
      status: 'ready',
      durationMs: SAMPLE_MP4.durationMs,
      width: SAMPLE_MP4.width,
      height: SAMPLE_MP4.height,
    });
  });

  it('reads a movie header stored after the media data, and QuickTime files', async () => {
    const late = makeSampleMp4({ width: 1280, height: 720, durationMs: 12_345, moovFirst: false, padding: 2 * MB });
    const first = await uploadAndComplete('video/mp4', late);
    expect(first.completed.body.data).toMatchObject({ durationMs: 12_345, width: 1280, height: 720 });
    const mov = makeSampleMp4({ brand: 'qt  ', durationMs: 4_000 });
    const second = await uploadAndComplete('video/quicktime', mov);
    expect(second.completed.body.data).toMatchObject({ contentType: 'video/quicktime', durationMs: 4_000 });
  });

  it('is idempotent: completing a ready asset returns it unchanged', async () => {
    const { created, completed } = await uploadAndComplete('image/jpeg', makeJpeg(10, 20));
    const again = await api('POST', `/media/${created.body.data.id}/complete`, { key: secret });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(completed.body);
  });

  it('answers MEDIA_NOT_READY before the bytes are uploaded', async () => {
    const created = await requestUpload({ kind: 'image', contentType: 'image/png', bytes: 100 });
    const res = await api('POST', `/media/${created.body.data.id}/complete`, { key: secret });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('MEDIA_NOT_READY');
    expect(res.body.error.message).toContain('PUT');
  });

  it('refuses bytes that are not what was declared, removes them, and lets the client try again', async () => {
    const jpeg = makeJpeg(8, 8);
    const created = await requestUpload({ kind: 'image', contentType: 'image/png', bytes: jpeg.length });
    const { id, upload } = created.body.data;
    expect((await put(upload, jpeg)).status).toBe(200);
    const res = await api('POST', `/media/${id}/complete`, { key: secret });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'contentType', message: expect.stringContaining('image/jpeg, not image/png') });
    expect(await local.head(`${workspaceId}/${id}.png`)).toBeNull();
    expect((await db.mediaAsset.findUnique({ where: { id } }))?.status).toBe('awaiting_upload');
  });

  it('refuses a video whose container has no movie header', async () => {
    const noMoov = Buffer.concat([makeSampleMp4().subarray(0, 32), Buffer.alloc(64)]);
    const created = await requestUpload({ kind: 'video', contentType: 'video/mp4', bytes: noMoov.length });
    await put(created.body.data.upload, noMoov);
    const res = await api('POST', `/media/${created.body.data.id}/complete`, { key: secret });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('movie header') });
  });

  it('answers MEDIA_NOT_FOUND for unknown ids, non-uuids and another workspace’s asset', async () => {
    const other = await createWorkspaceWithKey();
    const theirs = await api('POST', '/media/upload-url', { key: other.secret, body: { kind: 'image', contentType: 'image/png', bytes: 10 } });
    for (const id of [randomUUID(), 'not-a-uuid', theirs.body.data.id]) {
      for (const [method, p] of [
        ['POST', `/media/${id}/complete`],
        ['DELETE', `/media/${id}`],
      ] as const) {
        const res = await api(method, p, { key: secret });
        expect(res.status, `${method} ${p}`).toBe(404);
        expect(res.body.error.code).toBe('MEDIA_NOT_FOUND');
      }
    }
    expect(await db.mediaAsset.findUnique({ where: { id: theirs.body.data.id } })).not.toBeNull();
  });
});

describe('the local upload route', () => {
  async function pending(contentType = 'image/png', bytes = makePng(4, 4)) {
    const created = await requestUpload({ kind: contentType.startsWith('image/') ? 'image' : 'video', contentType, bytes: bytes.length });
    return { id: created.body.data.id as string, upload: created.body.data.upload as Upload, bytes };
  }

  it('refuses a tampered signature or payload (403) and stores nothing', async () => {
    const { id, upload, bytes } = await pending();
    const [payload, signature] = upload.url.split('/media/upload/')[1]!.split('.') as [string, string];
    const bigger = JSON.parse(Buffer.from(payload, 'base64url').toString());
    bigger.n = 99;
    const tampered = [
      `${server.url}/media/upload/${payload}.${signature.slice(0, -4)}AAAA`,
      `${server.url}/media/upload/${Buffer.from(JSON.stringify(bigger)).toString('base64url')}.${signature}`,
      `${server.url}/media/upload/garbage`,
    ];
    for (const url of tampered) {
      const res = await put({ ...upload, url }, bytes);
      expect(res.status, url).toBe(403);
      expect((await res.json()).error.code).toBe('FORBIDDEN');
    }
    expect(await local.head(`${workspaceId}/${id}.png`)).toBeNull();
  });

  it('refuses an expired upload URL', async () => {
    const { id, bytes } = await pending();
    const key = `${workspaceId}/${id}.png`;
    const token = createUploadToken(SIGNING_SECRET, { key, contentType: 'image/png', bytes: bytes.length, expiresAt: new Date(Date.now() - 1000) });
    const res = await put({ url: `${server.url}/media/upload/${token}`, method: 'PUT', headers: { 'Content-Type': 'image/png' }, expiresAt: '' }, bytes);
    expect(res.status).toBe(403);
    expect((await res.json()).error.message).toContain('expired');
    expect(await local.head(key)).toBeNull();
  });

  it('refuses another Content-Type or length than declared, with the field named', async () => {
    const { id, upload, bytes } = await pending();
    const wrongType = await put(upload, bytes, (h) => void (h['Content-Type'] = 'image/jpeg'));
    expect(wrongType.status).toBe(400);
    expect((await wrongType.json()).error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'Content-Type', message: expect.stringContaining('image/png') });
    const wrongLength = await put(upload, Buffer.concat([bytes, Buffer.from('x')]));
    expect(wrongLength.status).toBe(400);
    expect((await wrongLength.json()).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'Content-Length',
      message: expect.stringContaining(`exactly ${bytes.length} bytes`),
    });
    expect(await local.head(`${workspaceId}/${id}.png`)).toBeNull();
  });

  it('does not let a completed asset’s bytes be replaced', async () => {
    const { id, upload, bytes } = await pending();
    await put(upload, bytes);
    expect((await api('POST', `/media/${id}/complete`, { key: secret })).status).toBe(201);
    const res = await put(upload, makePng(4, 4).fill(1, 40));
    expect(res.status).toBe(409);
    expect((await readFile(path.join(local.root, workspaceId, `${id}.png`))).equals(bytes)).toBe(true);
  });

  it('only answers PUT', async () => {
    const { upload } = await pending();
    expect((await fetch(upload.url)).status).toBe(405);
  });
});

describe('the local file route', () => {
  it('never leaves the store', async () => {
    writeFileSync(path.join(dir, 'secret.txt'), 'top secret');
    const { completed } = await uploadAndComplete('image/png', makePng(2, 2));
    expect(completed.status).toBe(201);
    for (const p of [
      '/media/files/..%2Fsecret.txt',
      '/media/files/%2e%2e/secret.txt',
      '/media/files/.tmp',
      '/media/files/a/..%2F..%2Fsecret.txt',
      `/media/files/${workspaceId}`,
      '/media/files/',
      '/media/files/%E0%A4%A',
    ]) {
      const res = await fetch(`${server.url}${p}`);
      expect(res.status, p).toBe(404);
      expect(await res.text()).not.toContain('top secret');
    }
  });

  it('answers HEAD and byte ranges', async () => {
    const png = makePng(30, 30);
    const { completed } = await uploadAndComplete('image/png', png);
    const url = completed.body.data.url as string;
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(png.length));
    const part = await fetch(url, { headers: { range: 'bytes=1-3' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1-3/${png.length}`);
    expect(Buffer.from(await part.arrayBuffer()).toString('latin1')).toBe('PNG');
    expect((await fetch(url, { headers: { range: `bytes=${png.length}-` } })).status).toBe(416);
  });
});

describe('DELETE /media/{id}', () => {
  it('removes the asset and its stored object (204)', async () => {
    const { created, completed } = await uploadAndComplete('image/png', makePng(5, 5));
    const id = created.body.data.id;
    const res = await api('DELETE', `/media/${id}`, { key: secret });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await db.mediaAsset.findUnique({ where: { id } })).toBeNull();
    expect(await local.head(`${workspaceId}/${id}.png`)).toBeNull();
    expect((await fetch(completed.body.data.url!)).status).toBe(404);
    expect((await api('DELETE', `/media/${id}`, { key: secret })).status).toBe(404);
  });
});

describe('storage not configured or unreachable', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of [
      'DATA_DIR',
      'MEDIA_SIGNING_SECRET',
      'AUTH_SECRET',
      'BLOB_READ_WRITE_TOKEN',
      'HERALD_BASE_URL',
      'VERCEL_BLOB_API_URL',
      'VERCEL_BLOB_RETRIES',
    ]) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  async function expectUnavailable(body = { kind: 'image', contentType: 'image/png', bytes: 10 }) {
    const before = await db.mediaAsset.count({ where: { workspaceId } });
    const res = await requestUpload(body);
    expect(res.status, res.text).toBe(503);
    expect(res.body.error.code).toBe('MEDIA_STORAGE_UNAVAILABLE');
    expect(await db.mediaAsset.count({ where: { workspaceId } })).toBe(before);
  }

  it('uses the local store under DATA_DIR by default, signed with MEDIA_SIGNING_SECRET', async () => {
    setMediaStorageForTests(undefined);
    process.env.DATA_DIR = path.join(dir, 'data-dir');
    process.env.MEDIA_SIGNING_SECRET = 'from-env';
    process.env.HERALD_BASE_URL = server.url;
    delete process.env.BLOB_READ_WRITE_TOKEN;
    const png = makePng(3, 3);
    const { completed } = await uploadAndComplete('image/png', png);
    expect(completed.status).toBe(201);
    expect(mediaStorage()).toBeInstanceOf(LocalDiskStorage);
    expect(await readFile(path.join(dir, 'data-dir', 'blobs', workspaceId, `${completed.body.data.id}.png`))).toEqual(png);
  });

  it('answers 503 and writes nothing without a signing secret', async () => {
    setMediaStorageForTests(undefined);
    delete process.env.MEDIA_SIGNING_SECRET;
    delete process.env.AUTH_SECRET;
    delete process.env.BLOB_READ_WRITE_TOKEN;
    await expectUnavailable();
  });

  it('answers 503 and writes nothing when the local directory cannot be written', async () => {
    const file = path.join(dir, 'plain-file');
    writeFileSync(file, 'x');
    setMediaStorageForTests(new LocalDiskStorage({ root: path.join(file, 'blobs'), baseUrl: server.url, secret: SIGNING_SECRET }));
    await expectUnavailable();
  });

  it('answers 503 and writes nothing when Vercel Blob cannot be reached', async () => {
    setMediaStorageForTests(undefined);
    process.env.BLOB_READ_WRITE_TOKEN = 'vercel_blob_rw_unreachable_secret';
    process.env.VERCEL_BLOB_API_URL = 'http://127.0.0.1:9';
    process.env.VERCEL_BLOB_RETRIES = '0';
    await expectUnavailable({ kind: 'video', contentType: 'video/mp4', bytes: 10 });
  });

  it('answers 503 on complete and delete when the store went away, and deletes nothing', async () => {
    const created = await requestUpload({ kind: 'image', contentType: 'image/png', bytes: 10 });
    setMediaStorageForTests(undefined);
    process.env.BLOB_READ_WRITE_TOKEN = 'vercel_blob_rw_unreachable_secret';
    process.env.VERCEL_BLOB_API_URL = 'http://127.0.0.1:9';
    process.env.VERCEL_BLOB_RETRIES = '0';
    for (const [method, p] of [
      ['POST', `/media/${created.body.data.id}/complete`],
      ['DELETE', `/media/${created.body.data.id}`],
    ] as const) {
      const res = await api(method, p, { key: secret });
      expect(res.status, `${method} ${p}`).toBe(503);
      expect(res.body.error.code).toBe('MEDIA_STORAGE_UNAVAILABLE');
    }
    expect(await db.mediaAsset.findUnique({ where: { id: created.body.data.id } })).toMatchObject({ status: 'awaiting_upload' });
  });
});

describe('with Vercel Blob (local stand-in of the Blob API)', () => {
  let standIn: BlobStandIn;
  beforeAll(async () => {
    standIn = await startBlobStandIn();
    vi.stubEnv('VERCEL_BLOB_API_URL', standIn.apiUrl);
    vi.stubEnv('VERCEL_BLOB_RETRIES', '0');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    return standIn.close();
  });
  beforeEach(() => {
    vi.stubEnv('VERCEL_BLOB_API_URL', standIn.apiUrl);
    setMediaStorageForTests(new VercelBlobStorage({ token: standIn.token, publicBaseUrl: standIn.publicBaseUrl }));
  });

  it('uploads straight to the store with a client token, then completes', async () => {
    const mp4 = makeSampleMp4({ durationMs: 7_500, width: 640, height: 360 });
    const created = await requestUpload({ kind: 'video', contentType: 'video/mp4', bytes: mp4.length });
    expect(created.status).toBe(201);
    const { id, upload } = created.body.data;
    expect(upload.url).toBe(`${standIn.apiUrl}/?pathname=${encodeURIComponent(`${workspaceId}/${id}.mp4`)}`);
    expect(upload.headers).toMatchObject({
      'Content-Type': 'video/mp4',
      'Content-Length': String(mp4.length),
      'x-content-type': 'video/mp4',
      Authorization: expect.stringMatching(/^Bearer vercel_blob_client_/),
    });
    expect((await put(upload, mp4)).status).toBe(200);
    const completed = await api('POST', `/media/${id}/complete`, { key: secret });
    expect(completed.status, completed.text).toBe(201);
    expect(completed.body.data).toMatchObject({
      status: 'ready',
      durationMs: 7_500,
      width: 640,
      height: 360,
      url: `${standIn.publicBaseUrl}/${workspaceId}/${id}.mp4`,
    });
    // Completed: the client token may not overwrite it.
    expect((await put(upload, mp4)).status).toBe(400);

    expect((await api('DELETE', `/media/${id}`, { key: secret })).status).toBe(204);
    expect(standIn.objects.has(`${workspaceId}/${id}.mp4`)).toBe(false);
  });

  it('catches a short upload at completion (MEDIA_NOT_READY) and removes it', async () => {
    const png = makePng(20, 20);
    const created = await requestUpload({ kind: 'image', contentType: 'image/png', bytes: png.length });
    const { id, upload } = created.body.data;
    await put(upload, png.subarray(0, png.length - 5));
    const res = await api('POST', `/media/${id}/complete`, { key: secret });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'MEDIA_NOT_READY', message: expect.stringContaining(`${png.length - 5} bytes`) });
    expect(standIn.objects.has(`${workspaceId}/${id}.png`)).toBe(false);
    // The client can send the right file with the same URL.
    expect((await put(upload, png)).status).toBe(200);
    expect((await api('POST', `/media/${id}/complete`, { key: secret })).status).toBe(201);
  });
});
