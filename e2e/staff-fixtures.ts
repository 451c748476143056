// Shared set-up of the staff app's end-to-end tests: the seed, signing in, the public API
// (posts the screens then work on), and the few database changes no screen makes (a sandbox
// account's behaviour, a post whose time passed while nothing ran).
import { randomBytes } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import pg from 'pg';

export interface Seed {
  apiKey: string;
  workspace: { id: string; name: string };
  staff: { email: string; password: string };
  connections: { id: string; platform: string; displayName: string; sandbox: 'ok' | 'rejects_posts' | 'expired' }[];
}
export const seed = () => JSON.parse(process.env.HERALD_SEED ?? '{}') as Seed;

export const tag = () => randomBytes(3).toString('hex');

export function account(platform: string, sandbox: Seed['connections'][number]['sandbox'] = 'ok') {
  return seed().connections.find((c) => c.platform === platform && c.sandbox === sandbox)!;
}

export async function signIn(page: Page) {
  const { staff } = seed();
  await page.goto('/signin');
  await page.getByLabel('Email').fill(staff.email);
  await page.getByLabel('Password').fill(staff.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

export async function api(request: APIRequestContext, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, data?: unknown) {
  const res = await request.fetch(`/public/v1${path}`, { method, headers: { authorization: `Bearer ${seed().apiKey}` }, data });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as { data: Record<string, unknown> & { id: string; scheduledAt: string | null; status: string } };
}

export async function sql(text: string, values: unknown[]) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** `yyyy-MM-dd` of a UTC day `days` from today (the seeded workspace schedules in UTC). */
export function utcDay(days: number, from = new Date()): string {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + days));
  return d.toISOString().slice(0, 10);
}

/** The Monday starting the UTC week `weeks` after this one. */
export function mondayIn(weeks: number): string {
  const now = new Date();
  const sinceMonday = (now.getUTCDay() + 6) % 7;
  return utcDay(weeks * 7 - sinceMonday, now);
}
