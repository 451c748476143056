// What the production server answers before and around Herald's handlers: broken
// percent-encoding in an id is just an id that names nothing (the proxy repairs it), and an
// ordinary path does not go through the proxy at all.
import { expect, test } from './test';

const seed = () => JSON.parse(process.env.HERALD_SEED ?? '{}') as { apiKey: string };

test('broken percent-encoding in a path id answers the resource’s 404 in the envelope', async ({ request }) => {
  const headers = { Authorization: `Bearer ${seed().apiKey}` };
  for (const id of ['%ZZ', '%', '%C0%AE', '%ED%A0%80', 'not%20a%20uuid']) {
    const res = await request.get(`/public/v1/posts/${id}`, { headers });
    expect(res.status(), id).toBe(404);
    expect((await res.json()).error.code, id).toBe('POST_NOT_FOUND');
  }
  const ok = await request.get('/public/v1/posts?limit=1', { headers });
  expect(ok.status(), await ok.text()).toBe(200);
});

test('the production server reports its health with the job runner running, and echoes request ids', async ({ request }) => {
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok', database: { reachable: true }, jobs: { runner: 'running' } });
  const res = await request.get('/public/v1/posts?limit=1', { headers: { Authorization: `Bearer ${seed().apiKey}`, 'X-Request-Id': 'e2e-req-1' } });
  expect(res.headers()['x-request-id']).toBe('e2e-req-1');
  expect((await request.get('/api/metrics')).status()).toBe(404); // off without METRICS_TOKEN
});
