// mediaUrls on posts: downloaded into storage through the outbound guard; a post refused
// after the download leaves no asset or object behind.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeSampleMp4 } from '@/e2e/fixtures/sample-mp4';
import { db } from '@/server/db/client';
import { setMediaFetcherForTests } from '@/server/media/media-fetcher';
import { LocalDiskStorage, setMediaStorageForTests } from '@/server/media/storage';
import { startMediaOrigin, type MediaOrigin } from '@/server/media/testing/media-origin';
import { makePng } from '@/server/media/testing/sample-images';
import { createOutboundClient, type OutboundClient } from '@/server/outbound';
import { publishingWorkspace } from '@/server/testing/posts-fixtures';
import { usePublicApi } from '@/server/testing/public-api';

const api = usePublicApi();
let origin: MediaOrigin;
let client: OutboundClient;
let dir: string;
const at = (p: string) => `https://media.test:${origin.port}${p}`;

beforeAll(async () => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
  origin = await startMediaOrigin({
    '/photo.png': { body: makePng(64, 64), headers: { 'content-type': 'image/png' } },
    '/long.mp4': { body: makeSampleMp4({ width: 320, height: 240, durationMs: 200_000 }), headers: { 'content-type': 'video/mp4' } },
  });
  client = createOutboundClient({ resolve: async () => [{ address: '127.0.0.1', family: 4 }], ca: origin.cert, allowHosts: ['media.test'] });
  setMediaFetcherForTests(client);
  dir = mkdtempSync(path.join(os.tmpdir(), 'herald-post-media-'));
  setMediaStorageForTests(new LocalDiskStorage({ root: dir, baseUrl: 'https://herald.test', secret: 'test-secret' }));
});
afterAll(async () => {
  setMediaFetcherForTests(undefined);
  setMediaStorageForTests(undefined);
  await client.close();
  await origin.close();
  rmSync(dir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

const stored = () => readdirSync(dir, { recursive: true }).filter((f) => !String(f).includes('tmp') && path.extname(String(f)) !== '');

describe('mediaUrls on posts', () => {
  it('downloads a public URL into storage and attaches it', async () => {
    const w = await publishingWorkspace();
    const res = await api('POST', '/posts', { key: w.secret, body: { content: 'pic', connectionIds: [w.ok.instagram.id], mediaUrls: [at('/photo.png')] } });
    expect(res.status).toBe(201);
    expect(res.body.data.mediaUrls).toHaveLength(1);
    expect(res.body.data.mediaUrls[0]).toMatch(/^https:\/\/herald\.test\/media\/files\//);
    const asset = await db.mediaAsset.findFirstOrThrow({ where: { workspaceId: w.workspace.id } });
    expect(asset).toMatchObject({ status: 'ready', source: 'url', sourceUrl: at('/photo.png'), kind: 'image', width: 64, height: 64 });
  });

  it('refuses a non-https URL with MEDIA_URL_REFUSED naming it', async () => {
    const w = await publishingWorkspace();
    const res = await api('POST', '/posts', {
      key: w.secret,
      body: { content: 'pic', connectionIds: [w.ok.linkedin.id], mediaUrls: ['http://example.com/a.png'] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'MEDIA_URL_REFUSED', field: 'mediaUrls[0]' });
    expect(res.body.error.message).toContain('http://example.com/a.png');
  });

  it('removes what it downloaded when the post is then refused (video too long for X)', async () => {
    const w = await publishingWorkspace();
    const before = stored().length;
    const res = await api('POST', '/posts', { key: w.secret, body: { content: 'clip', connectionIds: [w.ok.twitter.id], mediaUrls: [at('/long.mp4')] } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('MEDIA_TOO_LONG');
    expect(await db.mediaAsset.count({ where: { workspaceId: w.workspace.id } })).toBe(0);
    expect(stored().length).toBe(before);
    expect(origin.hits('/long.mp4')).toBe(1);
  });
});
