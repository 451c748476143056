// Set-up for the client-link specs, through the running app's public API with the seed's
// agency key: a client workspace, its links, a minted key, posts awaiting approval.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';

const seed = () => JSON.parse(process.env.HERALD_SEED ?? '{}') as { apiKey: string };
const agencyHeaders = () => ({ authorization: `Bearer ${seed().apiKey}` });

export const LOGO_URL = 'https://brand.example/northwind-logo.svg';
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48" rx="10" fill="#0f5132"/><path d="M12 34V14h5l10 12V14h5v20h-5L17 22v12z" fill="#fff"/></svg>`;

/** The agency's logo host, answered locally: the browser loads the logo itself. */
export async function serveLogo(page: Page): Promise<void> {
  await page.route(LOGO_URL, (route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: LOGO_SVG }));
}

export async function createClient(request: APIRequestContext, name: string) {
  const res = await request.post('/public/v1/workspaces', { headers: agencyHeaders(), data: { name } });
  expect(res.status()).toBe(201);
  const clientId = (await res.json()).data.id as string;
  const key = await request.post(`/public/v1/workspaces/${clientId}/api-keys`, { headers: agencyHeaders(), data: { name: 'client key' } });
  return { clientId, key: (await key.json()).data.secret as string };
}

export async function issueLink(request: APIRequestContext, clientId: string, kind: 'connect' | 'review', body: Record<string, unknown> = {}) {
  const res = await request.post(`/public/v1/workspaces/${clientId}/${kind}-url`, {
    headers: agencyHeaders(),
    data: { brand: { name: 'Northwind Studio', logoUrl: LOGO_URL }, ...body },
  });
  expect(res.status()).toBe(201);
  const url = new URL((await res.json()).data.url as string);
  return { path: url.pathname, token: url.pathname.split('/').at(-1)! };
}

/** Connects a sandbox account the way the page's button does. */
export async function connectSandbox(request: APIRequestContext, token: string, platform: string): Promise<string> {
  const session = (await (await request.post(`/public/connect/${token}/session`)).json()).data.session as string;
  const res = await request.post(`/public/connect/${token}/authorize`, { data: { session, platform, demo: true } });
  expect(res.status()).toBe(200);
  return (await res.json()).data.connection.id as string;
}

export async function pendingPost(request: APIRequestContext, key: string, connectionIds: string[], content: string) {
  const scheduledAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const res = await request.post('/public/v1/posts', {
    headers: { authorization: `Bearer ${key}` },
    data: { content, connectionIds, scheduledAt, requireApproval: true },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).data.id as string;
}

async function withDatabase<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Links cannot be issued already expired: the test moves one past its expiry in the database. */
export async function expireLinks(clientId: string): Promise<void> {
  await withDatabase((db) => db.query(`UPDATE "ClientLink" SET "expiresAt" = now() - interval '1 minute' WHERE "workspaceId" = $1::uuid`, [clientId]));
}

/**
 * A connect attempt as the OAuth callback leaves it (the platform round trip itself is tested
 * against a stand-in in server/connect/oauth-flow.test.ts): failed with a message, or waiting
 * for the client to pick one of the sealed accounts. Returns its id and the browser's cookie.
 */
export async function returnedAttempt(
  token: string,
  attempt: { platform: string; status: 'failed' | 'choosing'; error?: string; choicesSealed?: string },
): Promise<{ id: string; cookie: string }> {
  const session = randomBytes(32).toString('base64url');
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  const id = await withDatabase(async (db) => {
    const rows = await db.query<{ id: string }>(
      `INSERT INTO "ConnectSession" ("id", "linkId", "tokenHash", "platform", "status", "error", "choicesSealed", "expiresAt", "updatedAt")
       SELECT gen_random_uuid(), "id", $2, $3, $4, $5, $6, now() + interval '15 minutes', now() FROM "ClientLink" WHERE "tokenHash" = $1
       RETURNING "id"`,
      [sha(token), sha(session), attempt.platform, attempt.status, attempt.error ?? null, attempt.choicesSealed ?? null],
    );
    return rows.rows[0]!.id;
  });
  return { id, cookie: `${token}.${session}` };
}
