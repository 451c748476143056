// The media library through real HTTP and PostgreSQL: GET /media (search by name, kind and
// creation time, pages, usage, workspaces apart, scopes) and DELETE /media/{id} refused while
// posts use the asset, including a post saved while the asset is being deleted.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { isAppError } from '@/server/errors/app-error';
import { checkDocumentedOutcomes } from '@/server/testing/public-api';
import { cancelPost } from '@/server/posts/cancel-post';
import { createPost } from '@/server/posts/create-post';
import { updatePost } from '@/server/posts/update-post';
import { apiClient } from '@/server/testing/api-client';
import { startTestServer, type TestServer } from '@/server/testing/api-server';
import { createKey, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { publishingWorkspace, readyMedia } from '@/server/testing/posts-fixtures';
import { nameFromFilename, nameFromUrl } from './asset-name';
import { handleMediaRoutes } from './http';
import { checkDeleteMediaAsset, deleteMediaAsset } from './media-assets';
import { getMediaLibraryItems } from './media-library';
import { LocalDiskStorage, setMediaStorageForTests } from './storage';
import { makePng } from './testing/sample-images';

let server: TestServer;
let api: ReturnType<typeof apiClient>;
let dir: string;
let storage: LocalDiskStorage;

// Every answer is looked up in the contract document (server/testing/documented-outcomes.ts).
const outcomes = checkDocumentedOutcomes();
beforeAll(async () => {
  server = await startTestServer({ '/public/v1': outcomes.handle, '/media': handleMediaRoutes });
  api = apiClient(server.url);
  dir = mkdtempSync(path.join(os.tmpdir(), 'herald-media-library-'));
});
afterAll(async () => {
  setMediaStorageForTests(undefined);
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  storage = new LocalDiskStorage({ root: path.join(dir, 'blobs'), baseUrl: server.url, secret: 'media-library-test-secret' });
  setMediaStorageForTests(storage);
});

interface LibraryItem {
  id: string;
  name: string;
  kind: string;
  status: string;
  usedBy: { posts: number; postIds: string[] };
}
interface LibraryPage {
  data: LibraryItem[];
  page: number;
  limit: number;
  total: number;
}

async function library(key: string, query = '') {
  const res = await api('GET', `/media${query}` as '/media', { key });
  return { status: res.status, body: res.body as unknown as LibraryPage & { error?: { code: string; message: string } } };
}

/** upload-url (with a file name) → PUT → complete, through the API and the local store. */
async function upload(key: string, filename: string | undefined, bytes = makePng(4, 3)) {
  const created = await api('POST', '/media/upload-url', { key, body: { kind: 'image', contentType: 'image/png', bytes: bytes.length, filename } });
  expect(created.status, created.text).toBe(201);
  const target = created.body.data.upload;
  const headers: Record<string, string> = { ...target.headers };
  delete headers['Content-Length'];
  expect((await fetch(target.url, { method: 'PUT', headers, body: new Uint8Array(bytes) })).status).toBe(200);
  const completed = await api('POST', `/media/${created.body.data.id}/complete`, { key });
  expect(completed.status, completed.text).toBe(201);
  return completed.body.data;
}

const objectPath = (workspaceId: string, id: string) => path.join(dir, 'blobs', workspaceId, `${id}.png`);

describe('asset names', () => {
  it('keep the last part of a file name, and a URL’s last path segment decoded', () => {
    expect(nameFromFilename('C:\\Users\\ana\\Autumn menu.png')).toBe('Autumn menu.png');
    expect(nameFromFilename('  ')).toBeNull();
    expect(nameFromUrl('https://cdn.example/img/autumn%20menu.jpg?w=800#top')).toBe('autumn menu.jpg');
    expect(nameFromUrl('https://cdn.example/img/100%.jpg')).toBe('100%.jpg');
    expect(nameFromUrl('https://cdn.example/')).toBeNull();
  });

  it('an upload is named by its filename, or after its kind and id without one', async () => {
    const { secret } = await createWorkspaceWithKey();
    const named = await upload(secret, 'shop/Autumn Menu.png');
    expect(named.name).toBe('Autumn Menu.png');
    const unnamed = await upload(secret, undefined);
    expect(unnamed.name).toBe(`image-${unnamed.id.slice(0, 8)}.png`);
  });
});

describe('GET /media', () => {
  it('lists ready assets newest first, searched by name, kind and creation time, a page at a time', async () => {
    const { workspace, secret } = await publishingWorkspace();
    const day = (d: number) => new Date(Date.UTC(2026, 10, d, 12));
    const menu = await readyMedia(workspace.id, { name: 'Autumn-Menu.png', createdAt: day(1) });
    const teaser = await readyMedia(workspace.id, { name: 'menu teaser.mp4', kind: 'video', createdAt: day(3) });
    const logo = await readyMedia(workspace.id, { name: '100%_logo.png', createdAt: day(5) });
    // Not attachable yet: left out unless asked for.
    const pending = await api('POST', '/media/upload-url', {
      key: secret,
      body: { kind: 'image', contentType: 'image/png', bytes: 10, filename: 'pending.png' },
    });

    const all = await library(secret);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, limit: 50, total: 3 });
    expect(all.body.data.map((a) => a.id)).toEqual([logo.id, teaser.id, menu.id]);
    expect(all.body.data[0]).toMatchObject({ name: '100%_logo.png', kind: 'image', status: 'ready', usedBy: { posts: 0, postIds: [] } });

    expect((await library(secret, '?search=MENU')).body.data.map((a) => a.id)).toEqual([teaser.id, menu.id]);
    // % and _ are letters in a search, not patterns.
    expect((await library(secret, '?search=%25_')).body.data.map((a) => a.id)).toEqual([logo.id]);
    expect((await library(secret, '?search=menu&kind=image')).body.data.map((a) => a.id)).toEqual([menu.id]);
    expect((await library(secret, '?kind=video')).body.total).toBe(1);
    const range = await library(secret, `?from=${encodeURIComponent(day(2).toISOString())}&to=${encodeURIComponent(day(4).toISOString())}`);
    expect(range.body.data.map((a) => a.id)).toEqual([teaser.id]);

    const page2 = await library(secret, '?limit=2&page=2');
    expect(page2.body).toMatchObject({ page: 2, limit: 2, total: 3 });
    expect(page2.body.data.map((a) => a.id)).toEqual([menu.id]);

    const waiting = await library(secret, '?status=awaiting_upload');
    expect(waiting.body.data.map((a) => a.id)).toEqual([pending.body.data.id]);
  });

  it('answers VALIDATION_FAILED or BAD_REQUEST for bad filters', async () => {
    const { secret } = await createWorkspaceWithKey();
    for (const query of ['?kind=audio', '?limit=0', '?limit=201', '?from=yesterday', '?status=deleted', '?colour=red']) {
      const res = await library(secret, query);
      expect(res.status, query).toBe(400);
    }
  });

  it('says which posts use each asset: by id or by URL, cancelled posts left out', async () => {
    const { workspace, secret, ok } = await publishingWorkspace();
    const asset = await readyMedia(workspace.id, { name: 'used.png' });
    const byId = await createPost(workspace.id, { content: 'by id', connectionIds: [ok.linkedin.id], mediaIds: [asset.id] });
    // A post that carries the asset's URL only (as posts written before `media` existed do).
    const byUrl = await db.post.create({
      data: {
        workspaceId: workspace.id,
        content: 'by url',
        mediaUrls: [asset.url!],
        platforms: ['linkedin'],
        connectionIds: [ok.linkedin.id],
        status: 'draft',
      },
    });
    const cancelled = await createPost(workspace.id, { content: 'cancelled', connectionIds: [ok.linkedin.id], mediaIds: [asset.id] });
    await cancelPost(workspace.id, cancelled.post.id);

    const [row] = (await library(secret, '?search=used')).body.data;
    expect(row!.usedBy.posts).toBe(2);
    expect(row!.usedBy.postIds.sort()).toEqual([byId.post.id, byUrl.id].sort());
  });

  it('shows a workspace only its own assets', async () => {
    const mine = await createWorkspaceWithKey();
    const theirs = await createWorkspaceWithKey();
    const own = await readyMedia(mine.workspace.id, { name: 'shared-name.png' });
    const other = await readyMedia(theirs.workspace.id, { name: 'shared-name.png' });
    expect((await library(mine.secret)).body.data.map((a) => a.id)).toEqual([own.id]);
    expect((await library(theirs.secret, '?search=shared')).body.data.map((a) => a.id)).toEqual([other.id]);
    const res = await api('DELETE', `/media/${other.id}`, { key: mine.secret });
    expect(res.status).toBe(404);
    expect(await db.mediaAsset.findUnique({ where: { id: other.id } })).not.toBeNull();
  });

  it('reads the assets the composer is opened with: ready ones of the workspace, in the order asked', async () => {
    const mine = await createWorkspaceWithKey();
    const theirs = await createWorkspaceWithKey();
    const a = await readyMedia(mine.workspace.id);
    const b = await readyMedia(mine.workspace.id, { kind: 'video' });
    const other = await readyMedia(theirs.workspace.id);
    const items = await getMediaLibraryItems(mine.workspace.id, [b.id, 'not-a-uuid', other.id, a.id, b.id]);
    expect(items.map((i) => i.id)).toEqual([b.id, a.id]);
    expect(items[0]).toMatchObject({ kind: 'video', usedBy: { posts: 0, postIds: [] } });
  });

  it('needs posts:read to list; deleting needs media:write', async () => {
    const { workspace } = await createWorkspaceWithKey();
    const asset = await readyMedia(workspace.id);
    const writer = await createKey(workspace.id, { scopes: ['media:write'] });
    const reader = await createKey(workspace.id, { scopes: ['posts:read'] });
    expect((await library(writer.secret)).body.error).toMatchObject({ code: 'SCOPE_MISSING' });
    expect((await library(reader.secret)).status).toBe(200);
    const del = await api('DELETE', `/media/${asset.id}`, { key: reader.secret });
    expect(del.status).toBe(403);
  });
});

describe('DELETE /media/{id}', () => {
  it('is refused with MEDIA_IN_USE, naming the posts, while a post uses the asset; the object stays', async () => {
    const { workspace, secret, ok } = await publishingWorkspace();
    const asset = await upload(secret, 'in-use.png');
    const first = await createPost(workspace.id, { content: 'one', connectionIds: [ok.linkedin.id], mediaIds: [asset.id] });
    const second = await createPost(workspace.id, { content: 'two', connectionIds: [ok.linkedin.id], mediaUrls: [asset.url!] });

    const res = await api('DELETE', `/media/${asset.id}`, { key: secret });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('MEDIA_IN_USE');
    expect(res.body.error.message).toContain('used by 2 posts');
    expect(res.body.error.message).toContain(first.post.id);
    expect(res.body.error.message).toContain(second.post.id);
    expect(existsSync(objectPath(workspace.id, asset.id))).toBe(true);
    // An assistant's delete is not even staged.
    await expect(checkDeleteMediaAsset(workspace.id, asset.id)).rejects.toMatchObject({ code: 'MEDIA_IN_USE' });

    // Once no live post uses it (one edited away, one cancelled) it goes.
    await updatePost(workspace.id, first.post.id, { mediaIds: [] });
    await cancelPost(workspace.id, second.post.id);
    expect((await api('DELETE', `/media/${asset.id}`, { key: secret })).status).toBe(204);
  });

  it('deletes an unused asset with its stored object', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    const asset = await upload(secret, 'unused.png');
    expect(existsSync(objectPath(workspace.id, asset.id))).toBe(true);
    const res = await api('DELETE', `/media/${asset.id}`, { key: secret });
    expect(res.status).toBe(204);
    expect(existsSync(objectPath(workspace.id, asset.id))).toBe(false);
    expect(await db.mediaAsset.findUnique({ where: { id: asset.id } })).toBeNull();
    expect((await library(secret)).body.total).toBe(0);
  });

  it('never lets a post and the delete of its asset both succeed when they race', async () => {
    const { workspace, ok } = await publishingWorkspace();
    for (let round = 0; round < 12; round++) {
      const asset = await readyMedia(workspace.id);
      const scheduled = round % 2 === 1;
      const [post, deletion] = await Promise.allSettled([
        createPost(workspace.id, {
          content: `race ${round}`,
          connectionIds: [ok.linkedin.id],
          mediaIds: [asset.id],
          ...(scheduled ? { scheduledAt: new Date(Date.now() + 86_400_000).toISOString() } : {}),
        }),
        deleteMediaAsset(workspace.id, asset.id),
      ]);
      const reason = (r: PromiseSettledResult<unknown>) => (r.status === 'rejected' && isAppError(r.reason) ? r.reason.code : r.status);
      if (post.status === 'fulfilled') {
        expect(reason(deletion), `round ${round}`).toBe('MEDIA_IN_USE');
        expect(await db.mediaAsset.findUnique({ where: { id: asset.id } })).not.toBeNull();
      } else {
        expect(reason(post), `round ${round}`).toBe('MEDIA_NOT_FOUND');
        expect(deletion.status).toBe('fulfilled');
      }
    }
  });

  it('a post held open on an asset makes the delete wait, then refuse', async () => {
    const { workspace, ok } = await publishingWorkspace();
    const asset = await readyMedia(workspace.id);
    let deletion: Promise<unknown> | undefined;
    let postId = '';
    await db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM "MediaAsset" WHERE "id" = ${asset.id}::uuid FOR KEY SHARE`;
      deletion = deleteMediaAsset(workspace.id, asset.id).then(
        () => 'deleted',
        (e: unknown) => (isAppError(e) ? e.code : e),
      );
      await new Promise((r) => setTimeout(r, 200));
      const post = await tx.post.create({
        data: {
          workspaceId: workspace.id,
          content: 'held',
          mediaUrls: [asset.url!],
          media: [{ assetId: asset.id, url: asset.url }],
          platforms: ['linkedin'],
          connectionIds: [ok.linkedin.id],
          status: 'draft',
        },
      });
      postId = post.id;
    });
    expect(await deletion).toBe('MEDIA_IN_USE');
    expect(postId).not.toBe('');
  });
});
