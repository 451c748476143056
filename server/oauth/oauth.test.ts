// Signing an assistant in by URL alone, through the protocol SDK's own OAuth client: the
// 401 challenge, discovery, dynamic registration, a member's consent, the PKCE exchange, and
// the minted key working on the tool endpoint — plus every refusal on the way.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { handlePublicApi } from '@/server/http/rest-handler';
import { handleMcp } from '@/server/mcp/endpoint';
import { startTestServer, type TestServer } from '@/server/testing/api-server';
import { createWorkspace } from '@/server/testing/fixtures';
import { handleAuthorizationServerMetadata, handleDecision, handleProtectedResourceMetadata, handleRegister, handleToken } from './http';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    '/.well-known/oauth-protected-resource': handleProtectedResourceMetadata,
    '/.well-known/oauth-authorization-server': handleAuthorizationServerMetadata,
    '/oauth/register': handleRegister,
    '/oauth/token': handleToken,
    '/oauth/authorize/decision': handleDecision,
    '/public/v1/mcp': handleMcp,
    '/public/v1': handlePublicApi,
  });
  vi.stubEnv('HERALD_BASE_URL', server.url);
});
afterAll(async () => {
  await server.close();
  vi.unstubAllEnvs();
});

class TestProvider implements OAuthClientProvider {
  redirectUrl = 'http://localhost:8976/callback';
  clientMetadata = { client_name: 'Test Assistant', redirect_uris: [this.redirectUrl], token_endpoint_auth_method: 'none' };
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  clientInformation = () => this.info;
  saveClientInformation = (info: OAuthClientInformationMixed) => void (this.info = info);
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => void (this.saved = tokens);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (v: string) => void (this.verifier = v);
  codeVerifier = () => this.verifier;
}

const mcpUrl = () => new URL('/public/v1/mcp', server.url);

async function member(role = 'owner') {
  const workspace = await createWorkspace();
  const user = await db.user.create({ data: { email: `m-${randomUUID()}@example.com`, name: 'Member' } });
  await db.membership.create({ data: { userId: user.id, workspaceId: workspace.id, role } });
  const token = randomBytes(24).toString('base64url');
  await db.session.create({ data: { sessionToken: token, userId: user.id, expires: new Date(Date.now() + 3_600_000) } });
  return { workspace, user, cookie: `authjs.session-token=${token}` };
}

async function consent(authorizationUrl: URL, cookie: string, extra: Record<string, string | string[]>) {
  const form = new URLSearchParams(authorizationUrl.searchParams);
  for (const [k, v] of Object.entries(extra)) {
    form.delete(k);
    for (const x of [v].flat()) form.append(k, x);
  }
  return fetch(new URL('/oauth/authorize/decision', server.url), {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    body: form,
    redirect: 'manual',
  });
}

/** Runs the SDK client up to the member's consent; returns what it needs to finish. */
async function startSignIn() {
  const provider = new TestProvider();
  const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
  await expect(new Client({ name: 'assistant', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl).toBeDefined();
  return { provider, transport, url: provider.authorizationUrl! };
}

describe('assistant sign-in (OAuth)', () => {
  it('challenges with the resource metadata and publishes discovery documents', async () => {
    const res = await fetch(mcpUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(`resource_metadata="${server.url}/.well-known/oauth-protected-resource/public/v1/mcp"`);
    const prm = (await (await fetch(`${server.url}/.well-known/oauth-protected-resource/public/v1/mcp`)).json()) as Record<string, unknown>;
    expect(prm).toMatchObject({ resource: `${server.url}/public/v1/mcp`, authorization_servers: [server.url] });
    const as = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({ issuer: server.url, code_challenge_methods_supported: ['S256'], registration_endpoint: `${server.url}/oauth/register` });
  });

  it('signs in end to end: register, consent, PKCE exchange, and the key works as an assistant connection', async () => {
    const { workspace, cookie } = await member();
    const { provider, transport, url } = await startSignIn();
    expect(url.pathname).toBe('/oauth/authorize');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const client = await db.oAuthClient.findUniqueOrThrow({ where: { id: url.searchParams.get('client_id')! } });
    expect(client).toMatchObject({ name: 'Test Assistant', redirectUris: ['http://localhost:8976/callback'] });

    const decided = await consent(url, cookie, { decision: 'approve', workspaceId: workspace.id, scopes: ['posts:read', 'connections:read'] });
    expect(decided.status).toBe(303);
    const back = new URL(decided.headers.get('location')!);
    expect(back.origin + back.pathname).toBe('http://localhost:8976/callback');
    expect(back.searchParams.get('state')).toBe(url.searchParams.get('state'));
    await transport.finishAuth(back.searchParams.get('code')!);
    expect(provider.saved?.access_token).toMatch(/^sk_live_/);

    const signedIn = new Client({ name: 'assistant', version: '1' });
    await signedIn.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    const tools = (await signedIn.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('posts_list');
    expect(tools).not.toContain('posts_create');
    await signedIn.close();

    const key = await db.apiKey.findFirstOrThrow({ where: { workspaceId: workspace.id } });
    expect(key).toMatchObject({ oauthClientId: client.id, scopes: ['posts:read', 'connections:read'], name: 'Assistant connection: Test Assistant' });
    // Revocation is a key's: at once.
    await db.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    const after = await fetch(`${server.url}/public/v1/posts`, { headers: { Authorization: `Bearer ${provider.saved!.access_token}` } });
    expect(after.status).toBe(401);
  });

  it('refuses a reused code and revokes the key it gave', async () => {
    const { workspace, cookie } = await member();
    const { provider, url } = await startSignIn();
    const back = new URL((await consent(url, cookie, { decision: 'approve', workspaceId: workspace.id, scopes: 'posts:read' })).headers.get('location')!);
    const form = {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: provider.verifier,
      client_id: url.searchParams.get('client_id')!,
      redirect_uri: provider.redirectUrl,
    };
    const token = (body: Record<string, string>) => fetch(`${server.url}/oauth/token`, { method: 'POST', body: new URLSearchParams(body) });
    const bad = await token({ ...form, code_verifier: 'x'.repeat(43) });
    expect([bad.status, ((await bad.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
    const first = await token(form);
    expect(first.status).toBe(200);
    const { access_token } = (await first.json()) as { access_token: string };
    const again = await token(form);
    expect(((await again.json()) as { error: string }).error).toBe('invalid_grant');
    expect((await fetch(`${server.url}/public/v1/connections`, { headers: { Authorization: `Bearer ${access_token}` } })).status).toBe(401);
  });

  it('grants nothing when the member unticks every permission', async () => {
    const { workspace, cookie } = await member();
    const { url } = await startSignIn();
    const res = await consent(url, cookie, { decision: 'approve', workspaceId: workspace.id });
    expect(((await res.json()) as { error: string }).error).toBe('invalid_scope');
  });

  it('sends a declined consent back as access_denied, and refuses what a member may not grant', async () => {
    const { workspace, cookie } = await member();
    const { url } = await startSignIn();
    const denied = new URL((await consent(url, cookie, { decision: 'deny' })).headers.get('location')!);
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('code')).toBeNull();

    const stranger = await createWorkspace();
    const foreign = await consent(url, cookie, { decision: 'approve', workspaceId: stranger.id });
    expect(foreign.status).toBe(403);
    const plainMember = await member('member');
    expect((await consent(url, plainMember.cookie, { decision: 'approve', workspaceId: plainMember.workspace.id })).status).toBe(403);
    const noSession = await consent(url, 'authjs.session-token=nope', { decision: 'approve', workspaceId: workspace.id });
    expect(noSession.status).toBe(401);
    const crossSite = await fetch(new URL('/oauth/authorize/decision', server.url), {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(url.searchParams),
      redirect: 'manual',
    });
    expect(crossSite.status).toBe(403);
    const noPkce = await consent(url, cookie, { decision: 'approve', workspaceId: workspace.id, code_challenge: '' });
    expect(((await noPkce.json()) as { error: string }).error).toBe('invalid_request');
    const manage = await consent(url, cookie, { decision: 'approve', workspaceId: workspace.id, scope: 'workspaces:manage' });
    expect(((await manage.json()) as { error: string }).error).toBe('invalid_scope');
    const otherRedirect = await consent(url, cookie, { decision: 'approve', workspaceId: workspace.id, redirect_uri: 'https://evil.example/cb' });
    expect(((await otherRedirect.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('registers only public clients with safe redirects', async () => {
    const register = (body: unknown) =>
      fetch(`${server.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await register({ redirect_uris: ['http://example.com/cb'] })).status).toBe(400);
    expect((await register({ redirect_uris: ['https://example.com/cb#x'] })).status).toBe(400);
    expect((await register({ redirect_uris: ['https://example.com/cb'], token_endpoint_auth_method: 'client_secret_basic' })).status).toBe(400);
    const ok = await register({ client_name: 'Desk', redirect_uris: ['https://example.com/cb', 'http://127.0.0.1:3000/cb'] });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ client_name: 'Desk', token_endpoint_auth_method: 'none' });
  });

  it('expires codes', async () => {
    const { workspace, cookie } = await member();
    const { provider, url } = await startSignIn();
    const back = new URL((await consent(url, cookie, { decision: 'approve', workspaceId: workspace.id, scopes: 'posts:read' })).headers.get('location')!);
    const code = back.searchParams.get('code')!;
    await db.oAuthCode.update({ where: { codeHash: createHash('sha256').update(code).digest('hex') }, data: { expiresAt: new Date(Date.now() - 1) } });
    const res = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: provider.verifier, client_id: url.searchParams.get('client_id')! }),
    });
    expect(((await res.json()) as { error_description: string }).error_description).toMatch(/expired/);
  });
});
