// Signing an assistant in by URL alone, through the protocol SDK's own OAuth client: the
// 401 challenge, discovery, dynamic registration, a member's consent, the PKCE exchange, and
// the minted key working on the tool endpoint — plus every refusal on the way.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  exchangeAuthorization,
  refreshAuthorization,
  registerClient,
  startAuthorization,
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { revokeApiKey } from '@/server/api-keys/manage-api-keys';
import { db } from '@/server/db/client';
import { handleMcp } from '@/server/mcp/endpoint';
import { startTestServer, type TestServer } from '@/server/testing/api-server';
import { createWorkspace } from '@/server/testing/fixtures';
import { checkDocumentedOutcomes } from '@/server/testing/public-api';
import * as oauthHttp from './http';
import { handleAuthorizationServerMetadata, handleDecision, handleProtectedResourceMetadata, handleRegister, handleToken } from './http';
import * as oauth from './oauth';

const outcomes = checkDocumentedOutcomes();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    '/.well-known/oauth-protected-resource': handleProtectedResourceMetadata,
    '/.well-known/oauth-authorization-server': handleAuthorizationServerMetadata,
    '/oauth/register': handleRegister,
    '/oauth/token': handleToken,
    '/oauth/authorize/decision': handleDecision,
    '/oauth/revoke': oauthHttp.handleRevoke,
    '/public/v1/mcp': handleMcp,
    '/public/v1': outcomes.handle,
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
    // Revocation is a key's: at once, on the instance that revoked it (others hear the
    // trigger's notification within milliseconds; a direct UPDATE here raced that on a busy machine).
    await revokeApiKey(workspace.id, key.id);
    expect((await initializeWith(provider.saved!.access_token)).status).toBe(401);
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
    expect((await initializeWith(access_token)).status).toBe(401);
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
    expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const manage = await consent(url, cookie, { decision: 'approve', workspaceId: workspace.id, scope: 'workspaces:manage' });
    expect(new URL(manage.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
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

// ───────────── Clients as they really sign in: lifetimes, refresh, binding, errors, redirects ─────────────

const DESKTOP_REDIRECT = 'http://127.0.0.1:33418/callback';

/** Discovery, registration, authorization URL and consent with the SDK's own helpers; answers the redirect back. */
async function sdkSignIn(opts: { redirectUri?: string; cookie: string; workspaceId: string; scopes?: string; grantTypes?: string[] }) {
  const redirectUri = opts.redirectUri ?? DESKTOP_REDIRECT;
  const prm = await discoverOAuthProtectedResourceMetadata(mcpUrl());
  const metadata = (await discoverAuthorizationServerMetadata(prm.authorization_servers![0]!))!;
  const clientInformation = await registerClient(server.url, {
    metadata,
    clientMetadata: {
      client_name: 'Desktop',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: opts.grantTypes ?? ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    },
  });
  const { authorizationUrl, codeVerifier } = await startAuthorization(server.url, {
    metadata,
    clientInformation,
    redirectUrl: redirectUri,
    scope: opts.scopes ?? 'posts:read connections:read',
    state: 'st-1',
    resource: new URL(prm.resource),
  });
  const decided = await consent(authorizationUrl, opts.cookie, {
    decision: 'approve',
    workspaceId: opts.workspaceId,
    scopes: (opts.scopes ?? 'posts:read connections:read').split(' '),
  });
  return { prm, metadata, clientInformation, authorizationUrl, codeVerifier, decided, redirectUri };
}

async function sdkTokens(opts: { cookie: string; workspaceId: string }) {
  const signIn = await sdkSignIn(opts);
  const back = new URL(signIn.decided.headers.get('location')!);
  const tokens = await exchangeAuthorization(server.url, {
    metadata: signIn.metadata,
    clientInformation: signIn.clientInformation,
    authorizationCode: back.searchParams.get('code')!,
    codeVerifier: signIn.codeVerifier,
    redirectUri: signIn.redirectUri,
    resource: new URL(signIn.prm.resource),
  });
  return { ...signIn, tokens };
}

/** An initialize on the tool endpoint with a bearer token: its status and challenge. */
async function initializeWith(token: string | null) {
  const res = await fetch(mcpUrl(), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  return { status: res.status, challenge: res.headers.get('www-authenticate') };
}

const tokenRequest = (body: Record<string, string>) => fetch(`${server.url}/oauth/token`, { method: 'POST', body: new URLSearchParams(body) });

describe('assistant sign-in: toolsets', () => {
  it('keeps the toolsets the member chose at consent on the connection, whose sessions list and run only them', async () => {
    const { workspace, cookie } = await member();
    const { provider, transport, url } = await startSignIn();
    const decided = await consent(url, cookie, {
      decision: 'approve',
      workspaceId: workspace.id,
      scopes: ['posts:read', 'posts:write', 'connections:read', 'analytics:read'],
      toolsetsShown: '1',
      toolsets: ['inbox', 'analytics'],
    });
    expect(decided.status).toBe(303);
    await transport.finishAuth(new URL(decided.headers.get('location')!).searchParams.get('code')!);
    const key = await db.apiKey.findFirstOrThrow({ where: { workspaceId: workspace.id } });
    expect(key.toolsets).toEqual(['analytics', 'inbox']);

    // The URL names no toolset: the connection's own.
    const signedIn = new Client({ name: 'assistant', version: '1' });
    await signedIn.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    const names = (await signedIn.listTools()).tools.map((t) => t.name);
    expect(names).toContain('inbox_reply');
    expect(names).toContain('post_metrics_top');
    expect(names.filter((n) => !/^(inbox|analytics|post_metrics|crawl|links|connections_instagram)_?/.test(n))).toEqual([]);
    const refused = (await signedIn.callTool({ name: 'posts_list', arguments: {} }).catch((e: unknown) => e)) as Error;
    expect(refused.message).toMatch(/Tool posts_list is in the toolset "publishing", which this session did not enable \(it has analytics, inbox\)/);
    await signedIn.close();

    // A URL naming toolsets wins over the connection's.
    const byUrl = new Client({ name: 'assistant', version: '1' });
    await byUrl.connect(new StreamableHTTPClientTransport(new URL('/public/v1/mcp?toolsets=publishing', server.url), { authProvider: provider }));
    expect((await byUrl.listTools()).tools.map((t) => t.name)).toContain('posts_list');
    expect((await byUrl.listTools()).tools.map((t) => t.name)).not.toContain('inbox_list');
    await byUrl.close();

    // A refresh keeps them: the connection stays one key.
    const refreshed = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: provider.saved!.refresh_token!, client_id: url.searchParams.get('client_id')! }),
    });
    expect(refreshed.status).toBe(200);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).toolsets).toEqual(['analytics', 'inbox']);
  });

  it('refuses a consent with no toolset or an unknown one, to the member; a form without the choice keeps the default', async () => {
    const { workspace, cookie } = await member();
    const { url } = await startSignIn();
    const none = await consent(url, cookie, { decision: 'approve', workspaceId: workspace.id, scopes: 'posts:read', toolsetsShown: '1' });
    expect([none.status, ((await none.json()) as { error_description: string }).error_description]).toEqual([400, 'Choose at least one toolset']);
    const unknown = await consent(url, cookie, {
      decision: 'approve',
      workspaceId: workspace.id,
      scopes: 'posts:read',
      toolsetsShown: '1',
      toolsets: ['billing'],
    });
    expect(unknown.status).toBe(400);
    const plain = await consent(url, cookie, { decision: 'approve', workspaceId: workspace.id, scopes: 'posts:read' });
    expect(plain.status).toBe(303);
    const code = await db.oAuthCode.findFirstOrThrow({ where: { workspaceId: workspace.id } });
    expect(code.toolsets).toEqual(['publishing']);
  });

  it('ticks first the toolsets a resource URL names; the token is bound to the bare endpoint', async () => {
    const { url } = await startSignIn();
    const params = Object.fromEntries(url.searchParams);
    const named = await oauth.checkAuthorization({ ...params, resource: `${server.url}/public/v1/mcp?toolsets=inbox,analytics` });
    expect(named).toMatchObject({ toolsets: ['analytics', 'inbox'], resource: `${server.url}/public/v1/mcp` });
    expect((await oauth.checkAuthorization({ ...params, resource: undefined })).toolsets).toEqual(['publishing']);
    for (const resource of [`${server.url}/public/v1/mcp?toolsets=billing`, `${server.url}/public/v1/mcp?other=1`]) {
      await expect(oauth.checkAuthorization({ ...params, resource })).rejects.toMatchObject({ error: 'invalid_target' });
    }
  });
});

describe('assistant sign-in: token lifetimes and refresh', () => {
  it('issues an hour-long access token and a refresh token; refreshing rotates both (SDK refreshAuthorization)', async () => {
    const { workspace, cookie } = await member();
    const { metadata, clientInformation, prm, tokens } = await sdkTokens({ cookie, workspaceId: workspace.id });
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toBeTruthy();
    expect((await initializeWith(tokens.access_token)).status).toBe(200);

    const refreshed = await refreshAuthorization(server.url, {
      metadata,
      clientInformation,
      refreshToken: tokens.refresh_token!,
      resource: new URL(prm.resource),
    });
    expect(refreshed.expires_in).toBe(3600);
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.scope).toBe('posts:read connections:read');
    expect((await initializeWith(refreshed.access_token)).status).toBe(200);
    // Still one assistant connection in the workspace's keys, its secret rotated.
    expect(await db.apiKey.count({ where: { workspaceId: workspace.id } })).toBe(1);
    expect((await initializeWith(tokens.access_token)).status).toBe(401);

    const again = await refreshAuthorization(server.url, {
      metadata,
      clientInformation,
      refreshToken: refreshed.refresh_token!,
      resource: new URL(prm.resource),
    });
    expect((await initializeWith(again.access_token)).status).toBe(200);
  });

  it('revokes the whole family when a rotated refresh token is presented again', async () => {
    const { workspace, cookie } = await member();
    const { clientInformation, tokens } = await sdkTokens({ cookie, workspaceId: workspace.id });
    const form = { grant_type: 'refresh_token', client_id: clientInformation.client_id };
    const first = await tokenRequest({ ...form, refresh_token: tokens.refresh_token! });
    expect(first.status).toBe(200);
    const current = (await first.json()) as { access_token: string; refresh_token: string };

    const replay = await tokenRequest({ ...form, refresh_token: tokens.refresh_token! });
    expect([replay.status, ((await replay.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
    // Everything the grant gave is dead: the live access token and the live refresh token.
    expect((await initializeWith(current.access_token)).status).toBe(401);
    const next = await tokenRequest({ ...form, refresh_token: current.refresh_token });
    expect(((await next.json()) as { error: string }).error).toBe('invalid_grant');
    expect((await db.apiKey.findFirstOrThrow({ where: { workspaceId: workspace.id } })).revokedAt).not.toBeNull();
  });

  it('refuses a refresh token of another client, and an expired access token with invalid_token', async () => {
    const { workspace, cookie } = await member();
    const { tokens } = await sdkTokens({ cookie, workspaceId: workspace.id });
    const other = await tokenRequest({ grant_type: 'refresh_token', client_id: randomUUID(), refresh_token: tokens.refresh_token! });
    expect(((await other.json()) as { error: string }).error).toBe('invalid_grant');

    await db.apiKey.updateMany({ where: { workspaceId: workspace.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await initializeWith(tokens.access_token);
    expect(expired.status).toBe(401);
    expect(expired.challenge).toContain('error="invalid_token"');
  });

  it('revokes through /oauth/revoke (RFC 7009), advertised in the metadata', async () => {
    const { workspace, cookie } = await member();
    const { metadata, clientInformation, tokens } = await sdkTokens({ cookie, workspaceId: workspace.id });
    expect((metadata as Record<string, unknown>).revocation_endpoint).toBe(`${server.url}/oauth/revoke`);
    const revoke = (token: string) =>
      fetch(`${server.url}/oauth/revoke`, { method: 'POST', body: new URLSearchParams({ token, client_id: clientInformation.client_id }) });
    expect((await revoke('not-a-token')).status).toBe(200);
    expect((await revoke(tokens.refresh_token!)).status).toBe(200);
    expect((await initializeWith(tokens.access_token)).status).toBe(401);
    const refresh = await tokenRequest({ grant_type: 'refresh_token', client_id: clientInformation.client_id, refresh_token: tokens.refresh_token! });
    expect(((await refresh.json()) as { error: string }).error).toBe('invalid_grant');

    // An access token revokes its connection too.
    const second = await sdkTokens({ cookie, workspaceId: workspace.id });
    const revokeSecond = await fetch(`${server.url}/oauth/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token: second.tokens.access_token, client_id: second.clientInformation.client_id }),
    });
    expect(revokeSecond.status).toBe(200);
    expect((await initializeWith(second.tokens.access_token)).status).toBe(401);
  });
});

describe('assistant sign-in: registration and redirect URIs', () => {
  it('keeps and echoes the refresh_token grant a client registers', async () => {
    const { workspace, cookie } = await member();
    const { clientInformation, metadata } = await sdkSignIn({ cookie, workspaceId: workspace.id });
    expect(clientInformation.grant_types).toEqual(['authorization_code', 'refresh_token']);
    expect(metadata.grant_types_supported).toEqual(['authorization_code', 'refresh_token']);
    const plain = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['https://example.com/cb'], grant_types: ['client_credentials'] }),
    });
    expect(((await plain.json()) as { error: string }).error).toBe('invalid_client_metadata');
  });

  it('accepts desktop redirect URIs (private-use schemes, loopback on any port) and refuses unsafe ones', async () => {
    const register = (uri: string) =>
      fetch(`${server.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [uri] }),
      });
    for (const uri of [
      'cursor://anysphere.cursor-retrieval/oauth/user-herald/callback',
      'vscode://vscode.github-authentication/did-authenticate',
      'com.example.app:/callback',
      'http://localhost/callback',
      'http://127.0.0.1/callback',
      'http://[::1]:8080/cb',
    ])
      expect([uri, (await register(uri)).status]).toEqual([uri, 201]);
    for (const uri of ['javascript:alert(1)', 'data:text/html,hi', 'file:///etc/passwd', 'http://example.com/cb', 'cursor://x/cb#frag', 'not a uri'])
      expect([uri, (await register(uri)).status]).toEqual([uri, 400]);
  });

  it('matches a loopback redirect URI on any port at authorize time, and nothing else loosely', async () => {
    const { workspace, cookie } = await member();
    const signIn = await sdkSignIn({ cookie, workspaceId: workspace.id, redirectUri: 'http://127.0.0.1/callback' });
    expect(signIn.decided.status).toBe(303);
    const url = new URL(signIn.authorizationUrl);
    const port = await consent(url, cookie, {
      decision: 'approve',
      workspaceId: workspace.id,
      redirect_uri: 'http://127.0.0.1:51234/callback',
      scopes: 'posts:read',
    });
    expect(port.status).toBe(303);
    const back = new URL(port.headers.get('location')!);
    expect(back.origin + back.pathname).toBe('http://127.0.0.1:51234/callback');
    const exchanged = await tokenRequest({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: signIn.codeVerifier,
      client_id: signIn.clientInformation.client_id,
      redirect_uri: 'http://127.0.0.1:51234/callback',
    });
    expect(exchanged.status).toBe(200);
    const otherPath = await consent(url, cookie, {
      decision: 'approve',
      workspaceId: workspace.id,
      redirect_uri: 'http://127.0.0.1:51234/other',
      scopes: 'posts:read',
    });
    expect(otherPath.status).toBe(400);
    const otherHost = await consent(url, cookie, {
      decision: 'approve',
      workspaceId: workspace.id,
      redirect_uri: 'http://localhost:51234/callback',
      scopes: 'posts:read',
    });
    expect(otherHost.status).toBe(400);
  });

  it('signs a private-use scheme client in', async () => {
    const { workspace, cookie } = await member();
    const { decided } = await sdkSignIn({ cookie, workspaceId: workspace.id, redirectUri: 'cursor://anysphere.cursor-retrieval/oauth/user-herald/callback' });
    expect(decided.status).toBe(303);
    expect(decided.headers.get('location')).toMatch(/^cursor:\/\/anysphere\.cursor-retrieval\/oauth\/user-herald\/callback\?code=/);
  });
});

describe('assistant sign-in: errors go back to the client once its redirect is known', () => {
  it('redirects bad scope, bad PKCE, unsupported response_type and a foreign resource with error, description and state', async () => {
    const { workspace, cookie } = await member();
    const { authorizationUrl, redirectUri } = await sdkSignIn({ cookie, workspaceId: workspace.id });
    const cases: Array<[Record<string, string>, string]> = [
      [{ scope: 'workspaces:manage' }, 'invalid_scope'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ resource: 'https://evil.example/mcp' }, 'invalid_target'],
      [{ decision: 'deny' }, 'access_denied'],
    ];
    for (const [extra, error] of cases) {
      const res = await consent(authorizationUrl, cookie, { decision: 'approve', workspaceId: workspace.id, ...extra });
      expect([extra, res.status]).toEqual([extra, 303]);
      const back = new URL(res.headers.get('location')!);
      expect(back.origin + back.pathname).toBe(redirectUri);
      expect(back.searchParams.get('error')).toBe(error);
      expect(back.searchParams.get('error_description')).toBeTruthy();
      expect(back.searchParams.get('state')).toBe('st-1');
      expect(back.searchParams.get('code')).toBeNull();
    }
    // What the page shows instead of redirecting: the same check the page runs.
    await expect(oauth.checkAuthorization({ ...Object.fromEntries(authorizationUrl.searchParams), scope: 'workspaces:manage' })).rejects.toMatchObject({
      error: 'invalid_scope',
      redirectTo: expect.stringContaining('error=invalid_scope'),
    });
    await expect(oauth.checkAuthorization({ ...Object.fromEntries(authorizationUrl.searchParams), client_id: randomUUID() })).rejects.toMatchObject({
      error: 'invalid_client',
      redirectTo: undefined,
    });
    const unregistered = await consent(authorizationUrl, cookie, { decision: 'approve', workspaceId: workspace.id, redirect_uri: 'https://evil.example/cb' });
    expect(unregistered.status).toBe(400);
    expect(unregistered.headers.get('location')).toBeNull();
  });
});

describe('assistant sign-in: resource binding (RFC 8707)', () => {
  it('refuses a foreign resource at the token endpoint, on exchange and on refresh', async () => {
    const { workspace, cookie } = await member();
    const signIn = await sdkSignIn({ cookie, workspaceId: workspace.id });
    const back = new URL(signIn.decided.headers.get('location')!);
    const form = {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: signIn.codeVerifier,
      client_id: signIn.clientInformation.client_id,
      redirect_uri: signIn.redirectUri,
    };
    const foreign = await tokenRequest({ ...form, resource: 'https://evil.example/mcp' });
    expect([foreign.status, ((await foreign.json()) as { error: string }).error]).toEqual([400, 'invalid_target']);
    const ok = await tokenRequest({ ...form, resource: signIn.prm.resource });
    expect(ok.status).toBe(200);
    const { refresh_token, access_token } = (await ok.json()) as { refresh_token: string; access_token: string };
    const refresh = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token,
      client_id: signIn.clientInformation.client_id,
      resource: `${server.url}/public/v1`,
    });
    expect(((await refresh.json()) as { error: string }).error).toBe('invalid_target');
    // The token is for the tool endpoint only: the REST API does not take it.
    expect((await fetch(`${server.url}/public/v1/posts`, { headers: { Authorization: `Bearer ${access_token}` } })).status).toBe(401);
    expect((await initializeWith(access_token)).status).toBe(200);
  });
});

describe('the tool endpoint challenge (RFC 6750 §3.1)', () => {
  it('says invalid_token when a bad token was sent, and names no error when none was', async () => {
    const none = await initializeWith(null);
    expect(none.status).toBe(401);
    expect(none.challenge).toContain('resource_metadata=');
    expect(none.challenge).not.toContain('error=');
    for (const bad of [`sk_live_${'a'.repeat(43)}`, 'garbage']) {
      const res = await initializeWith(bad);
      expect(res.status).toBe(401);
      expect(res.challenge).toContain('error="invalid_token"');
      expect(res.challenge).toMatch(/error_description="[^"]+"/);
      expect(res.challenge).toContain(`resource_metadata="${server.url}/.well-known/oauth-protected-resource/public/v1/mcp"`);
    }
  });
});

describe('the consent page workspace', () => {
  it("pre-selects the member's own workspace, or the one last used when it can be granted", async () => {
    const { user, workspace: own } = await member();
    await db.workspace.update({ where: { id: own.id }, data: { name: 'Zulu' } });
    const other = await createWorkspace({ name: 'Alpha' });
    await db.membership.create({ data: { userId: user.id, workspaceId: other.id, role: 'admin' } });
    const managed = await createWorkspace({ name: 'Client', managedById: own.id });

    const plain = await oauth.consentWorkspaces(user.id, undefined);
    expect(plain.workspaces.map((w) => w.name)).toEqual(expect.arrayContaining(['Zulu', 'Alpha', 'Client']));
    expect(plain.selectedId).toBe(own.id);
    expect((await oauth.consentWorkspaces(user.id, managed.id)).selectedId).toBe(managed.id);
    expect((await oauth.consentWorkspaces(user.id, (await createWorkspace()).id)).selectedId).toBe(own.id);
  });
});
