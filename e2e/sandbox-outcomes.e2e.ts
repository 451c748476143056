// The seed's sandbox accounts show every publishing outcome end to end, through the running
// app's public API: landed, refused by the platform, and refused for an expired token.
import { expect, test } from '@playwright/test';

interface Seed {
  apiKey: string;
  connections: { id: string; platform: string; sandbox: 'ok' | 'rejects_posts' | 'expired' }[];
}
const seed = () => JSON.parse(process.env.HERALD_SEED ?? '{}') as Seed;

test('publishing to the seeded sandbox accounts shows all three outcomes', async ({ request }) => {
  const { apiKey, connections } = seed();
  const headers = { authorization: `Bearer ${apiKey}` };
  const ok = connections.filter((c) => c.sandbox === 'ok' && c.platform !== 'instagram' && c.platform !== 'tiktok');
  const rejects = connections.find((c) => c.sandbox === 'rejects_posts')!;
  const expired = connections.find((c) => c.sandbox === 'expired')!;

  const created = await request.post('/public/v1/posts', {
    headers,
    data: { content: 'Hello from the e2e suite', connectionIds: [...ok.map((c) => c.id), rejects.id] },
  });
  expect(created.status()).toBe(201);
  const postId = (await created.json()).data.id as string;

  const published = await request.post(`/public/v1/posts/${postId}/publish`, { headers });
  expect(published.status()).toBe(201);
  const post = (await published.json()).data;
  expect(post.status).toBe('partial_published');
  for (const target of post.targets) {
    if (target.connectionId === rejects.id)
      expect(target).toMatchObject({ status: 'failed', postedId: null, error: expect.stringContaining('DUPLICATE_POST') });
    else expect(target).toMatchObject({ status: 'published', error: null, postedId: expect.any(String), permalink: expect.stringMatching(/^https:\/\//) });
  }

  const refused = await request.post('/public/v1/posts', { headers, data: { content: 'Old account', connectionIds: [expired.id] } });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error.code).toBe('CONNECTION_EXPIRED');
});
