// The seed's sandbox accounts show every publishing outcome end to end, through the running
// app's public API, on every network: landed, refused by the platform, and refused for
// an expired token.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext } from '@playwright/test';
import { expect, test } from './test';
import { PLATFORMS } from '../server/shared/platforms';
import { makePng } from '../server/media/testing/sample-images';

interface Seed {
  apiKey: string;
  connections: { id: string; platform: string; sandbox: 'ok' | 'rejects_posts' | 'expired' }[];
}
const seed = () => JSON.parse(process.env.HERALD_SEED ?? '{}') as Seed;
/** The networks whose posts need a video (or take one): they get the second post. */
const VIDEO_NETWORKS = ['instagram', 'instagram_login', 'tiktok', 'youtube', 'pinterest'];
/** The networks whose posts need an image (a Dribbble shot is one image): they get the third post. */
const IMAGE_NETWORKS = ['dribbble'];
/** connectionIds takes 1 to 20 ids (docs: POST /posts). */
const MAX_ACCOUNTS_PER_POST = 20;

/** upload-url → PUT → complete through the public API (docs: POST /media/upload-url). */
async function uploadVideo(request: APIRequestContext, headers: Record<string, string>): Promise<string> {
  return upload(request, headers, 'video', 'video/mp4', readFileSync(path.join(import.meta.dirname, 'fixtures/sample-320x240-2500ms.mp4')));
}

/** A 400x300 PNG, a size Dribbble takes, uploaded the same way. */
async function uploadImage(request: APIRequestContext, headers: Record<string, string>): Promise<string> {
  return upload(request, headers, 'image', 'image/png', makePng(400, 300));
}

async function upload(
  request: APIRequestContext,
  headers: Record<string, string>,
  kind: 'image' | 'video',
  contentType: string,
  bytes: Buffer,
): Promise<string> {
  const created = await request.post('/public/v1/media/upload-url', { headers, data: { kind, contentType, bytes: bytes.length } });
  expect(created.status(), await created.text()).toBe(201);
  const { id, upload: target } = (await created.json()).data as { id: string; upload: { url: string; headers: Record<string, string> } };
  const put = await request.put(target.url, {
    headers: Object.fromEntries(Object.entries(target.headers).filter(([k]) => k !== 'Content-Length')),
    data: bytes,
  });
  expect(put.status(), await put.text()).toBe(200);
  expect((await request.post(`/public/v1/media/${id}/complete`, { headers })).status()).toBeLessThan(300);
  return id;
}

test('publishing to the seeded sandbox accounts of every network shows all three outcomes', async ({ request }) => {
  const { apiKey, connections } = seed();
  const headers = { authorization: `Bearer ${apiKey}` };
  const ok = connections.filter((c) => c.sandbox === 'ok');
  expect(new Set(ok.map((c) => c.platform))).toEqual(new Set(PLATFORMS));
  const rejects = connections.find((c) => c.sandbox === 'rejects_posts')!;
  const expired = connections.find((c) => c.sandbox === 'expired')!;

  const text = ok.filter((c) => !VIDEO_NETWORKS.includes(c.platform) && !IMAGE_NETWORKS.includes(c.platform));
  // A post goes to 1 to 20 accounts (the contract's connectionIds): the text networks and the
  // account that refuses posts go in posts of at most twenty.
  const textIds = [...text.map((c) => c.id), rejects.id];
  const textPosts: string[] = [];
  // The settings the networks need, given only for the networks a post goes to.
  const needs: Record<string, Record<string, string>> = { reddit: { subreddit: 'herald', title: 'Hello from Herald' }, lemmy: { title: 'Hello from Herald' } };
  const platformOfId = new Map(connections.map((c) => [c.id, c.platform]));
  for (let i = 0; i < textIds.length; i += MAX_ACCOUNTS_PER_POST) {
    const connectionIds = textIds.slice(i, i + MAX_ACCOUNTS_PER_POST);
    const platforms = new Set(connectionIds.map((id) => platformOfId.get(id)!));
    const created = await request.post('/public/v1/posts', {
      headers,
      data: {
        content: 'Hello from the e2e suite',
        connectionIds,
        platformSettings: Object.fromEntries(Object.entries(needs).filter(([p]) => platforms.has(p))),
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    textPosts.push((await created.json()).data.id);
  }
  const video = await request.post('/public/v1/posts', {
    headers,
    data: {
      content: 'A short clip from the e2e suite',
      connectionIds: ok.filter((c) => VIDEO_NETWORKS.includes(c.platform)).map((c) => c.id),
      mediaIds: [await uploadVideo(request, headers)],
      platformSettings: { youtube: { title: 'A short clip', privacy: 'unlisted' } },
    },
  });
  expect(video.status(), await video.text()).toBe(201);
  const image = await request.post('/public/v1/posts', {
    headers,
    data: {
      content: 'A label study from the e2e suite',
      connectionIds: ok.filter((c) => IMAGE_NETWORKS.includes(c.platform)).map((c) => c.id),
      mediaIds: [await uploadImage(request, headers)],
      platformSettings: { dribbble: { title: 'A label study' } },
    },
  });
  expect(image.status(), await image.text()).toBe(201);

  const targets = [];
  for (const postId of [...textPosts, (await video.json()).data.id, (await image.json()).data.id] as string[]) {
    const published = await request.post(`/public/v1/posts/${postId}/publish`, { headers });
    expect(published.status(), await published.text()).toBe(201);
    targets.push(...(await published.json()).data.targets);
  }
  const platformOf = new Map(connections.map((c) => [c.id, c.platform]));
  const landed = new Set<string>();
  for (const target of targets) {
    if (target.connectionId === rejects.id) {
      expect(target).toMatchObject({ status: 'failed', postedId: null, error: expect.stringContaining('DUPLICATE_POST') });
      continue;
    }
    const platform = platformOf.get(target.connectionId)!;
    // A Slack incoming webhook answers only "ok": no link to the message exists.
    // Herald's own page of the demo post (a real Slack webhook gives no link, nor does its demo).
    const permalink = platform === 'slack' ? null : expect.stringMatching(new RegExp(`/demo-post/${platform}/`));
    expect(target, platform).toMatchObject({ status: 'published', error: null, postedId: expect.any(String), permalink });
    landed.add(platform);
  }
  expect([...landed].sort()).toEqual([...PLATFORMS].sort());

  const refused = await request.post('/public/v1/posts', { headers, data: { content: 'Old account', connectionIds: [expired.id] } });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error.code).toBe('CONNECTION_EXPIRED');
});
