// Hosted connect links (contract: Hosted connect link, Endpoints → Workspaces connect-url,
// Hosted connect page, CONNECT_* errors, Limits; detach revokes links).
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashLinkToken } from '@/server/client-links/link-tokens';
import { db } from '@/server/db/client';
import { HEADERS } from '@/server/shared/headers';
import { oauthProviders } from '@/server/connect/oauth/providers';
import type { CredentialsProvider } from '@/server/connect/oauth/oauth-provider';
import { mastodonOAuth } from '@/server/connect/oauth/providers/mastodon';
import { PLATFORMS, type Platform } from '@/server/shared/platforms';

/** The networks a client connects for real with what they type, needing nothing of the deployment (an app password, an API key, a token). */
const READY_WITH_CREDENTIALS: readonly Platform[] = ['bluesky', 'devto', 'ghost', 'lemmy', 'listmonk', 'hashnode', 'medium', 'wordpress', 'nostr'];
const credentialsOf = (platform: Platform) => oauthProviders[platform] as CredentialsProvider;
import { useClientLinkApi } from '@/server/testing/client-link-api';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';

const { api, raw } = useClientLinkApi();
const BASE = 'https://connect.agency.test';

beforeAll(() => {
  process.env.CONNECT_BASE_URL = BASE;
  process.env.CONNECT_SANDBOX = 'on';
});
afterEach(() => {
  vi.unstubAllEnvs();
});

async function agencyWithClient(opts: { agencyName?: string } = {}) {
  const agency = await createWorkspaceWithKey();
  if (opts.agencyName) await db.workspace.update({ where: { id: agency.workspace.id }, data: { name: opts.agencyName } });
  const client = await api('POST', '/workspaces', { key: agency.secret, body: { name: 'Client Co' } });
  return { agency, clientId: client.body.data.id };
}

async function connectLink(secret: string, clientId: string, body: Record<string, unknown> = {}) {
  const res = await api('POST', `/workspaces/${clientId}/connect-url`, { key: secret, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...res.body.data, token: res.body.data.url.split('/').at(-1)! };
}

describe('POST /workspaces/{id}/connect-url', () => {
  it('answers 201 { url, expiresAt, rotated } once, valid 7 days, and stores only the hash', async () => {
    const { agency, clientId } = await agencyWithClient({ agencyName: 'Northwind Agency' });
    const res = await api('POST', `/workspaces/${clientId}/connect-url`, { key: agency.secret, body: {} });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { url: expect.any(String), expiresAt: expect.any(String), rotated: false }, warnings: [] });
    const { url, expiresAt } = res.body.data;
    expect(url).toMatch(new RegExp(`^${BASE}/connect/[A-Za-z0-9_-]{43}$`));
    expect(Math.abs(new Date(expiresAt).getTime() - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);
    const token = url.split('/').at(-1)!;
    const row = await db.clientLink.findFirstOrThrow({ where: { workspaceId: clientId } });
    expect(row.tokenHash).toBe(hashLinkToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    // The brand defaults to the agency's name.
    const page = await raw('GET', `/public/connect/${token}`);
    expect(page.body.data.brand).toEqual({ name: 'Northwind Agency', logoUrl: null });
  });

  it('takes expiresInDays 1 to 90, a brand of up to 80 characters and an https logo; refuses anything else', async () => {
    const { agency, clientId } = await agencyWithClient();
    const one = await connectLink(agency.secret, clientId, { expiresInDays: 1, brand: { name: 'Acme Social', logoUrl: 'https://cdn.acme.test/logo.png' } });
    expect(Math.abs(new Date(one.expiresAt).getTime() - (Date.now() + 86_400_000))).toBeLessThan(60_000);
    expect((await raw('GET', `/public/connect/${one.token}`)).body.data.brand).toEqual({ name: 'Acme Social', logoUrl: 'https://cdn.acme.test/logo.png' });
    const ninety = await connectLink(agency.secret, clientId, { expiresInDays: 90 });
    expect(Math.abs(new Date(ninety.expiresAt).getTime() - (Date.now() + 90 * 86_400_000))).toBeLessThan(60_000);

    for (const body of [
      { expiresInDays: 0 },
      { expiresInDays: 91 },
      { expiresInDays: 1.5 },
      { expiresInDays: '7' },
      { rotate: 'true' },
      { brand: { name: 'x'.repeat(81) } },
      { brand: { logoUrl: 'http://cdn.acme.test/logo.png' } },
      { brand: { logoUrl: 'https://user:pw@cdn.acme.test/logo.png' } },
      { brand: { logoUrl: 'javascript:alert(1)' } },
      { brand: { colour: 'red' } },
      { extra: true },
    ]) {
      const res = await api('POST', `/workspaces/${clientId}/connect-url`, { key: agency.secret, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('refuses the workspace header, a key without workspaces:manage, and workspaces the caller does not manage', async () => {
    const { agency, clientId } = await agencyWithClient();
    const header = await api('POST', `/workspaces/${clientId}/connect-url`, { key: agency.secret, body: {}, headers: { [HEADERS.workspace]: clientId } });
    expect(header.status).toBe(400);
    expect(header.body.error.code).toBe('WORKSPACE_HEADER_NOT_ALLOWED');

    const limited = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    const scope = await api('POST', `/workspaces/${clientId}/connect-url`, { key: limited.secret, body: {} });
    expect(scope.status).toBe(403);
    expect(scope.body.error.code).toBe('SCOPE_MISSING');

    const other = await createWorkspaceWithKey();
    for (const id of [clientId, agency.workspace.id, other.workspace.id, 'not-a-uuid']) {
      const res = await api('POST', `/workspaces/${id}/connect-url`, { key: other.secret, body: {} });
      expect(res.status, id).toBe(404);
      expect(res.body.error.code).toBe('WORKSPACE_NOT_FOUND');
    }
    expect(await db.clientLink.count({ where: { workspaceId: clientId } })).toBe(0);
  });

  it('rotate revokes every earlier connect link of the workspace (and only those) before minting', async () => {
    const { agency, clientId } = await agencyWithClient();
    const first = await connectLink(agency.secret, clientId);
    const second = await connectLink(agency.secret, clientId);
    const review = (await api('POST', `/workspaces/${clientId}/review-url`, { key: agency.secret, body: {} })).body.data;
    const other = await agencyWithClient();
    const elsewhere = await connectLink(other.agency.secret, other.clientId);

    const rotated = await connectLink(agency.secret, clientId, { rotate: true });
    expect(rotated.rotated).toBe(true);
    for (const old of [first, second]) {
      const res = await raw('GET', `/public/connect/${old.token}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 'CONNECT_TOKEN_INVALID', message: expect.any(String) } });
    }
    expect((await raw('GET', `/public/connect/${rotated.token}`)).status).toBe(200);
    expect((await raw('GET', `/public/review/${review.url.split('/').at(-1)}`)).status).toBe(200);
    expect((await raw('GET', `/public/connect/${elsewhere.token}`)).status).toBe(200);
  });
});

describe('GET /public/connect/{token}', () => {
  it('answers the page data in the contract shape, for that client workspace only', async () => {
    const { agency, clientId } = await agencyWithClient();
    const mine = await createSandboxConnection(clientId, { platform: 'linkedin' });
    await createSandboxConnection(agency.workspace.id, { platform: 'facebook' });
    const link = await connectLink(agency.secret, clientId, { brand: { name: 'Acme', logoUrl: 'https://cdn.acme.test/l.svg' } });

    const res = await raw('GET', `/public/connect/${link.token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      data: {
        workspace: { id: clientId, name: 'Client Co', timeZone: 'UTC' },
        brand: { name: 'Acme', logoUrl: 'https://cdn.acme.test/l.svg' },
        expiresAt: link.expiresAt,
        // Bluesky, Mastodon, Dev.to, Ghost, Lemmy and Nostr connect real accounts out of the box; every channel offers a demo account too.
        channels: PLATFORMS.map((platform) => ({
          platform,
          configured: true,
          ...(READY_WITH_CREDENTIALS.includes(platform)
            ? { connectWith: 'credentials', fields: credentialsOf(platform).fields, instructions: expect.any(String) }
            : platform === 'mastodon'
              ? { connectWith: 'oauth', fields: [mastodonOAuth.instance!.field], instructions: null }
              : { connectWith: 'sandbox', fields: [], instructions: null }),
          demo: true,
        })),
        connections: [{ id: mine.id, platform: 'linkedin', accountName: mine.accountName, displayName: mine.displayName, avatarUrl: null, status: 'active' }],
        telegramBotUsername: null,
        selfIssued: false,
      },
    });
  });

  it('marks channels without an OAuth app as not configured when the sandbox is off', async () => {
    vi.stubEnv('CONNECT_SANDBOX', 'off');
    vi.stubEnv('LINKEDIN_CLIENT_ID', 'li-app');
    vi.stubEnv('LINKEDIN_CLIENT_SECRET', 'li-secret');
    const { agency, clientId } = await agencyWithClient();
    const link = await connectLink(agency.secret, clientId);
    const res = await raw('GET', `/public/connect/${link.token}`);
    // Bluesky and Mastodon need nothing of the deployment: they connect for real, asking first
    // (an app password; the client's own server).
    const asks: Partial<Record<string, { connectWith: string; fields: unknown[]; instructions: string | null }>> = {
      linkedin: { connectWith: 'oauth', fields: [], instructions: null },
      mastodon: { connectWith: 'oauth', fields: [mastodonOAuth.instance!.field], instructions: null },
    };
    for (const platform of READY_WITH_CREDENTIALS) {
      asks[platform] = { connectWith: 'credentials', fields: credentialsOf(platform).fields, instructions: await credentialsOf(platform).instructions() };
    }
    expect(res.body.data.channels).toEqual(
      PLATFORMS.map((platform) => ({
        platform,
        configured: platform in asks,
        ...(asks[platform] ?? { connectWith: null, fields: [], instructions: null }),
        demo: false,
      })),
    );
    expect(res.body.data.telegramBotUsername).toBeNull();
    const session = (await raw('POST', `/public/connect/${link.token}/session`)).body.data.session;
    const refused = await raw('POST', `/public/connect/${link.token}/authorize`, { body: { session, platform: 'tiktok' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'platform' });
    const again = (await raw('POST', `/public/connect/${link.token}/session`)).body.data.session;
    const noDemo = await raw('POST', `/public/connect/${link.token}/authorize`, { body: { session: again, platform: 'linkedin', demo: true } });
    expect(noDemo.status).toBe(400);
    expect(noDemo.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'demo' });
  });

  it('connects a demo account only when asked, where a real one could connect; a workspace can switch demo accounts off', async () => {
    const { agency, clientId } = await agencyWithClient();
    const link = await connectLink(agency.secret, clientId);
    const session = async () => (await raw('POST', `/public/connect/${link.token}/session`)).body.data.session as string;
    // Bluesky connects for real: without `demo` it asks for the handle and app password.
    const real = await raw('POST', `/public/connect/${link.token}/authorize`, { body: { session: await session(), platform: 'bluesky' } });
    expect(real.status).toBe(400);
    expect(real.body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await db.connection.count({ where: { workspaceId: clientId } })).toBe(0);
    const demo = await raw('POST', `/public/connect/${link.token}/authorize`, { body: { session: await session(), platform: 'bluesky', demo: true } });
    expect(demo.status).toBe(200);
    expect(demo.body.data.connection).toMatchObject({ platform: 'bluesky', displayName: 'Client Co (demo)' });
    expect((await db.connection.findFirstOrThrow({ where: { workspaceId: clientId } })).provider).toBe('sandbox');

    // The client workspace turns demo accounts off: the page offers none, and none connects.
    const settings = await api('PATCH', '/settings', { key: agency.secret, body: { demoAccounts: false }, headers: { [HEADERS.workspace]: clientId } });
    expect(settings.status).toBe(200);
    expect(settings.body.data.demoAccounts).toBe(false);
    const page = await raw('GET', `/public/connect/${link.token}`);
    expect(page.body.data.channels.every((c: { demo: boolean }) => !c.demo)).toBe(true);
    expect(page.body.data.channels.find((c: { platform: string }) => c.platform === 'linkedin')).toMatchObject({ configured: false, connectWith: null });
    const refused = await raw('POST', `/public/connect/${link.token}/authorize`, { body: { session: await session(), platform: 'linkedin' } });
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'platform' });
    const refusedDemo = await raw('POST', `/public/connect/${link.token}/authorize`, { body: { session: await session(), platform: 'bluesky', demo: true } });
    expect(refusedDemo.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'demo' });
  });

  it('answers 404 CONNECT_TOKEN_INVALID for unknown or malformed tokens and 410 CONNECT_TOKEN_EXPIRED past expiresAt', async () => {
    for (const token of ['A'.repeat(43), 'short', 'x'.repeat(150)]) {
      const res = await raw('GET', `/public/connect/${token}`);
      expect(res.status, token).toBe(404);
      expect(res.body.error.code).toBe('CONNECT_TOKEN_INVALID');
    }
    const { agency, clientId } = await agencyWithClient();
    const link = await connectLink(agency.secret, clientId);
    await db.clientLink.updateMany({ where: { workspaceId: clientId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await raw('GET', `/public/connect/${link.token}`);
    expect(expired.status).toBe(410);
    expect(expired.body.error.code).toBe('CONNECT_TOKEN_EXPIRED');
    const session = await raw('POST', `/public/connect/${link.token}/session`);
    expect(session.status).toBe(410);
    expect(session.body.error.code).toBe('CONNECT_TOKEN_EXPIRED');
  });

  it('is not the review link: a review token is CONNECT_TOKEN_INVALID here and vice versa', async () => {
    const { agency, clientId } = await agencyWithClient();
    const connect = await connectLink(agency.secret, clientId);
    const review = (await api('POST', `/workspaces/${clientId}/review-url`, { key: agency.secret, body: {} })).body.data;
    expect(review.url).toMatch(new RegExp(`^${BASE}/review/[A-Za-z0-9_-]{43}$`));
    expect((await raw('GET', `/public/connect/${review.url.split('/').at(-1)}`)).status).toBe(404);
    expect((await raw('GET', `/public/review/${connect.token}`)).status).toBe(404);
  });
});

describe('POST /public/connect/{token}/session and connecting', () => {
  it('mints a 15-minute session; a sandbox channel connects a demo account at once; a reconnect updates it in place', async () => {
    const { agency, clientId } = await agencyWithClient();
    const link = await connectLink(agency.secret, clientId);
    const minted = await raw('POST', `/public/connect/${link.token}/session`);
    expect(minted.status).toBe(200);
    expect(minted.body).toEqual({ data: { session: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expiresAt: expect.any(String) } });
    expect(Math.abs(new Date(minted.body.data.expiresAt).getTime() - (Date.now() + 15 * 60_000))).toBeLessThan(10_000);
    const stored = await db.connectSession.findFirstOrThrow({ where: { link: { workspaceId: clientId } } });
    expect(stored.tokenHash).toBe(hashLinkToken(minted.body.data.session));

    const connected = await raw('POST', `/public/connect/${link.token}/authorize`, { body: { session: minted.body.data.session, platform: 'instagram' } });
    expect(connected.status).toBe(200);
    expect(connected.body.data).toMatchObject({ kind: 'connected', connection: { platform: 'instagram', displayName: 'Client Co (demo)' } });
    const page = await raw('GET', `/public/connect/${link.token}`);
    expect(page.body.data.connections).toEqual([expect.objectContaining({ id: connected.body.data.connection.id, platform: 'instagram', status: 'active' })]);

    // One attempt per session.
    const reused = await raw('POST', `/public/connect/${link.token}/authorize`, { body: { session: minted.body.data.session, platform: 'linkedin' } });
    expect(reused.status).toBe(401);
    expect(reused.body.error.code).toBe('CONNECT_SESSION_INVALID');

    // Connecting the same demo account again updates the row instead of adding one.
    await db.connection.update({ where: { id: connected.body.data.connection.id }, data: { status: 'inactive', lastError: 'expired' } });
    const again = (await raw('POST', `/public/connect/${link.token}/session`)).body.data.session;
    const second = await raw('POST', `/public/connect/${link.token}/authorize`, { body: { session: again, platform: 'instagram' } });
    expect(second.body.data.connection.id).toBe(connected.body.data.connection.id);
    expect(await db.connection.findMany({ where: { workspaceId: clientId } })).toEqual([
      expect.objectContaining({ status: 'active', lastError: null, provider: 'sandbox' }),
    ]);
    // The agency that sent the link was told, once per connect and reconnect.
    expect((await db.notification.findMany({ where: { workspaceId: agency.workspace.id }, orderBy: { createdAt: 'asc' } })).map((n) => n.title)).toEqual([
      'Client Co connected Client Co (demo) on Instagram',
      'Client Co reconnected Client Co (demo) on Instagram',
    ]);
    // The minted client key sees it through the API.
    const key = (await api('POST', `/workspaces/${clientId}/api-keys`, { key: agency.secret, body: { name: 'client' } })).body.data.secret;
    expect((await api('GET', '/connections', { key })).body.data.map((c) => c.platform)).toEqual(['instagram']);
  });

  it('answers 401 CONNECT_SESSION_INVALID for a bad, expired or foreign session, or once the link is no longer live', async () => {
    const { agency, clientId } = await agencyWithClient();
    const link = await connectLink(agency.secret, clientId);
    const other = await connectLink(agency.secret, clientId);
    const foreign = (await raw('POST', `/public/connect/${other.token}/session`)).body.data.session;
    for (const session of ['nope', 'B'.repeat(43), foreign]) {
      const res = await raw('POST', `/public/connect/${link.token}/authorize`, { body: { session, platform: 'linkedin' } });
      expect(res.status, session).toBe(401);
      expect(res.body.error.code).toBe('CONNECT_SESSION_INVALID');
    }
    const expiring = (await raw('POST', `/public/connect/${link.token}/session`)).body.data.session;
    await db.connectSession.update({ where: { tokenHash: hashLinkToken(expiring) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await raw('POST', `/public/connect/${link.token}/authorize`, { body: { session: expiring, platform: 'linkedin' } })).status).toBe(401);

    const live = (await raw('POST', `/public/connect/${link.token}/session`)).body.data.session;
    await connectLink(agency.secret, clientId, { rotate: true });
    const afterRotation = await raw('POST', `/public/connect/${link.token}/authorize`, { body: { session: live, platform: 'linkedin' } });
    expect(afterRotation.status).toBe(401);
    expect(afterRotation.body.error.code).toBe('CONNECT_SESSION_INVALID');
    expect(await db.connection.count({ where: { workspaceId: clientId } })).toBe(0);
  });

  it('takes strict JSON bodies', async () => {
    const { agency, clientId } = await agencyWithClient();
    const link = await connectLink(agency.secret, clientId);
    expect((await raw('POST', `/public/connect/${link.token}/session`, { body: { extra: 1 } })).status).toBe(400);
    const session = (await raw('POST', `/public/connect/${link.token}/session`, { body: {} })).body.data.session;
    expect((await raw('POST', `/public/connect/${link.token}/authorize`, { body: { session, platform: 'myspace' } })).status).toBe(400);
    const text = await raw('POST', `/public/connect/${link.token}/authorize`, {
      body: { session, platform: 'linkedin' },
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    // A look-alike media type is not JSON either: the same parsed comparison as the REST facade.
    for (const type of ['application/jsonx', 'application/json-seq']) {
      const lookalike = await raw('POST', `/public/connect/${link.token}/authorize`, {
        body: { session, platform: 'linkedin' },
        headers: { 'content-type': type },
      });
      expect(lookalike.status, type).toBe(415);
    }
    expect((await raw('DELETE', `/public/connect/${link.token}`)).body.error.code).toBe('ROUTE_NOT_FOUND');
  });
});

describe('detach', () => {
  it('revokes every live link of the workspace; minted keys keep working', async () => {
    const { agency, clientId } = await agencyWithClient();
    const connect = await connectLink(agency.secret, clientId);
    const review = (await api('POST', `/workspaces/${clientId}/review-url`, { key: agency.secret, body: {} })).body.data.url.split('/').at(-1)!;
    const key = (await api('POST', `/workspaces/${clientId}/api-keys`, { key: agency.secret, body: { name: 'client' } })).body.data.secret;
    const session = (await raw('POST', `/public/connect/${connect.token}/session`)).body.data.session;

    expect((await api('DELETE', `/workspaces/${clientId}`, { key: agency.secret })).status).toBe(204);
    for (const path of [`/public/connect/${connect.token}`, `/public/review/${review}`]) {
      const res = await raw('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('CONNECT_TOKEN_INVALID');
    }
    expect((await raw('POST', `/public/connect/${connect.token}/session`)).body.error.code).toBe('CONNECT_TOKEN_INVALID');
    expect((await raw('POST', `/public/connect/${connect.token}/authorize`, { body: { session, platform: 'linkedin' } })).body.error.code).toBe(
      'CONNECT_SESSION_INVALID',
    );
    expect(await db.clientLink.count({ where: { workspaceId: clientId, revokedAt: null } })).toBe(0);
    expect((await api('GET', '/connections', { key })).status).toBe(200);
  });
});

describe('brute-force throttling', () => {
  it('limits each client address across tokens, and each link across addresses', async () => {
    vi.stubEnv('CLIENT_LINK_RATE_LIMIT_PER_MINUTE', '5');
    const address = `192.0.2.${Math.floor(Math.random() * 250)}`;
    const answers: number[] = [];
    for (let i = 0; i < 7; i++) answers.push((await raw('GET', `/public/connect/${'C'.repeat(42)}${i}`, { address })).status);
    expect(answers).toEqual([404, 404, 404, 404, 404, 429, 429]);
    const limited = await raw('GET', `/public/connect/${'D'.repeat(43)}`, { address });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    const { agency, clientId } = await agencyWithClient();
    const link = await connectLink(agency.secret, clientId);
    const fromMany: number[] = [];
    for (let i = 0; i < 7; i++) fromMany.push((await raw('GET', `/public/connect/${link.token}`)).status);
    expect(fromMany).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });
});
