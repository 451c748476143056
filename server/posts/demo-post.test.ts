// A demo account's permalink opens Herald's own page of the demo post: what it reads, and
// that it shows nothing but published demo posts.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { usePublicApi } from '@/server/testing/public-api';
import { publishingWorkspace } from '@/server/testing/posts-fixtures';
import { readDemoPost } from './demo-post';

const api = usePublicApi();
beforeAll(() => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
  vi.stubEnv('HERALD_BASE_URL', 'https://herald.example');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe('a demo post’s page', () => {
  it('is where the permalink of a published demo post points, and shows that post’s text for its network', async () => {
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', {
      key: w.secret,
      body: { content: 'Fresh roast on Friday', connectionIds: [w.ok.linkedin.id, w.ok.twitter.id], variants: { twitter: { content: 'Friday roast!' } } },
    });
    const published = await api('POST', `/posts/${created.body.data.id}/publish`, { key: w.secret });
    const [li, tw] = published.body.data.targets as { postedId: string; permalink: string }[];
    expect(li.permalink).toBe(`https://herald.example/demo-post/linkedin/${li.postedId}`);
    expect(await readDemoPost('linkedin', li.postedId)).toMatchObject({ platform: 'linkedin', content: 'Fresh roast on Friday', mediaCount: 0 });
    expect(await readDemoPost('twitter', tw.postedId)).toMatchObject({ platform: 'twitter', content: 'Friday roast!' });
    // The id on another network is not that network's post.
    expect(await readDemoPost('facebook', li.postedId)).toBeNull();
  });

  it('shows nothing for a real account’s post, an unpublished target or an unknown platform', async () => {
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'Real one', connectionIds: [w.ok.facebook.id] } });
    const published = await api('POST', `/posts/${created.body.data.id}/publish`, { key: w.secret });
    const target = published.body.data.targets[0] as { id: string; postedId: string };
    await db.connection.update({ where: { id: w.ok.facebook.id }, data: { provider: 'live' } });
    expect(await readDemoPost('facebook', target.postedId)).toBeNull();
    await db.connection.update({ where: { id: w.ok.facebook.id }, data: { provider: 'sandbox' } });
    expect(await readDemoPost('facebook', target.postedId)).not.toBeNull();
    await db.postTarget.update({ where: { id: target.id }, data: { status: 'failed' } });
    expect(await readDemoPost('facebook', target.postedId)).toBeNull();
    expect(await readDemoPost('myspace', target.postedId)).toBeNull();
  });
});
