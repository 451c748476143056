// What the production server answers for odd API paths before any Herald code could: broken
// percent-encoding in an id is just an id that names nothing (the proxy repairs it), and an
// ordinary path does not go through the proxy at all.
import { expect, test } from '@playwright/test';

const seed = () => JSON.parse(process.env.HERALD_SEED ?? '{}') as { apiKey: string };

test('broken percent-encoding in a path id answers the resource’s 404 in the envelope', async ({ request }) => {
  const headers = { Authorization: `Bearer ${seed().apiKey}` };
  for (const id of ['%ZZ', '%', '%C0%AE', '%ED%A0%80', 'not%20a%20uuid']) {
    const res = await request.get(`/public/v1/posts/${id}`, { headers });
    expect(res.status(), id).toBe(404);
    expect((await res.json()).error.code, id).toBe('POST_NOT_FOUND');
  }
  const ok = await request.get('/public/v1/posts?limit=1', { headers });
  expect(ok.status()).toBe(200);
});
