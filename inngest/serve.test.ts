// The route handlers answer Inngest's introspection with every generated function.
import { NextRequest } from 'next/server';
import { afterAll, expect, it } from 'vitest';
import { jobCatalogue } from '@/server/jobs/catalogue';

const savedDev = process.env.INNGEST_DEV;
afterAll(() => {
  if (savedDev === undefined) delete process.env.INNGEST_DEV;
  else process.env.INNGEST_DEV = savedDev;
});

it('serves the functions at /api/inngest', async () => {
  // Without a signing key the SDK only serves in dev mode.
  process.env.INNGEST_DEV = '1';
  const { GET } = await import('./serve');
  const res = await GET(new NextRequest('http://localhost:3000/api/inngest'), undefined);
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ function_count: jobCatalogue.length, mode: 'dev' });
});
