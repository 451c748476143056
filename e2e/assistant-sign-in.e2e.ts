// An assistant signs in the way connectors do (Claude.ai, ChatGPT, Cursor, mcp-remote), with
// the MCP TypeScript SDK's own OAuth functions against the running Herald: discovery from the
// tool endpoint's 401, dynamic registration, PKCE, a member's consent in Chromium, the token,
// tools/list, a refresh that rotates both tokens, and revocation.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  exchangeAuthorization,
  refreshAuthorization,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { expect, test } from './test';
import { signIn } from './staff-fixtures';

const REDIRECT = 'http://127.0.0.1:9/callback';

async function listTools(mcpUrl: URL, accessToken: string): Promise<string[]> {
  const client = new Client({ name: 'e2e-connector', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { Authorization: `Bearer ${accessToken}` } } }));
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

test('a connector discovers, registers, gets a member’s consent, lists tools, refreshes and is revoked', async ({ page, baseURL }) => {
  const mcpUrl = new URL('/public/v1/mcp', baseURL);

  // 1. The 401 names where to sign in.
  const unauthorized = await fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{}',
  });
  expect(unauthorized.status).toBe(401);
  const challenge = unauthorized.headers.get('www-authenticate') ?? '';
  expect(challenge).toMatch(/^Bearer /);
  expect(challenge).not.toContain('error=');
  const resourceMetadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;

  // 2. Discovery and dynamic registration, as the SDK does them.
  const resource = await discoverOAuthProtectedResourceMetadata(mcpUrl, { resourceMetadataUrl });
  const authorizationServer = resource.authorization_servers![0]!;
  const metadata = (await discoverAuthorizationServerMetadata(authorizationServer))!;
  expect(metadata.code_challenge_methods_supported).toContain('S256');
  const clientInformation = await registerClient(authorizationServer, {
    metadata,
    clientMetadata: {
      client_name: 'E2E Connector',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
  });
  expect(clientInformation.grant_types).toContain('refresh_token');
  const { authorizationUrl, codeVerifier } = await startAuthorization(authorizationServer, {
    metadata,
    clientInformation,
    redirectUrl: REDIRECT,
    scope: 'posts:read posts:write',
    state: 'e2e-state',
    resource: new URL(resource.resource),
  });

  // 3. A member consents in the browser; Herald sends the browser back with the code.
  await signIn(page);
  let returned: URL | undefined;
  await page.route('http://127.0.0.1:9/**', async (route) => {
    returned = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'You can close this window.' });
  });
  await page.goto(authorizationUrl.toString());
  await expect(page.getByRole('heading', { name: 'Connect E2E Connector to Herald' })).toBeVisible();
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect.poll(() => returned?.searchParams.get('code') ?? null).not.toBeNull();
  expect(returned!.searchParams.get('state')).toBe('e2e-state');

  // 4. The code for tokens; the assistant lists its tools.
  const tokens = await exchangeAuthorization(authorizationServer, {
    metadata,
    clientInformation,
    authorizationCode: returned!.searchParams.get('code')!,
    codeVerifier,
    redirectUri: REDIRECT,
    resource: new URL(resource.resource),
  });
  expect(tokens.expires_in).toBe(3600);
  expect(tokens.refresh_token).toBeTruthy();
  expect(await listTools(mcpUrl, tokens.access_token)).toContain('posts_list');

  // 5. A refresh rotates both tokens; the old access token stops working.
  const refreshed = await refreshAuthorization(authorizationServer, {
    metadata,
    clientInformation,
    refreshToken: tokens.refresh_token!,
    resource: new URL(resource.resource),
  });
  expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
  expect(await listTools(mcpUrl, refreshed.access_token)).toContain('posts_create');
  const stale = await fetch(mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(stale.status).toBe(401);
  expect(stale.headers.get('www-authenticate')).toContain('error="invalid_token"');

  // 6. Revoked: nothing works any more, refresh included.
  const revocationEndpoint = (metadata as { revocation_endpoint?: string }).revocation_endpoint!;
  const revoke = await fetch(revocationEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: refreshed.refresh_token!, client_id: clientInformation.client_id }),
  });
  expect(revoke.status).toBe(200);
  const afterRevoke = await fetch(mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${refreshed.access_token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(afterRevoke.status).toBe(401);
  await expect(
    refreshAuthorization(authorizationServer, { metadata, clientInformation, refreshToken: refreshed.refresh_token!, resource: new URL(resource.resource) }),
  ).rejects.toThrow();
});
