// Signing an assistant client in without a pasted key (the tool protocol's authorization
// flow): the client registers itself, a member signs in, picks a workspace and scopes and
// consents; the client exchanges the one-time code (PKCE S256) for an access token, which is
// an API key minted for that workspace — same scopes, limits and revocation as any key, and
// listed with the workspace's keys as an "assistant connection".
import { createHash, randomBytes } from 'node:crypto';
import { createApiKey } from '@/server/api-keys/mint-api-key';
import { SCOPES, type Scope } from '@/server/auth/scopes';
import { env } from '@/server/config/env';
import { db } from '@/server/db/client';
import { isUuid } from '@/server/shared/schemas';
import { MCP_PATH } from '@/server/shared/paths';

/** How long a granted code may wait for its exchange. */
export const CODE_TTL_MS = 10 * 60_000;
/** Scopes an assistant connection can be given: every key scope except managing workspaces. */
export const GRANTABLE_SCOPES: readonly Scope[] = SCOPES.filter((s) => s !== 'workspaces:manage');
/** Members who may connect an assistant to a workspace (they can mint keys for it). */
const GRANTING_ROLES = ['owner', 'admin'];

/** An OAuth protocol error: RFC 6749's `{ error, error_description }`, never Herald's envelope. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

export const issuer = () => env.baseUrl();
export const resourceUrl = () => `${env.baseUrl()}${MCP_PATH}`;

/** Where a client finds the metadata of the tool endpoint (RFC 9728: the resource's path after the well-known prefix). */
export const protectedResourceMetadataUrl = () => `${env.baseUrl()}/.well-known/oauth-protected-resource${MCP_PATH}`;

export function protectedResourceMetadata() {
  return {
    resource: resourceUrl(),
    authorization_servers: [issuer()],
    scopes_supported: [...GRANTABLE_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Herald',
    resource_documentation: `${env.baseUrl()}${MCP_PATH}/setup`,
  };
}

export function authorizationServerMetadata() {
  const base = issuer();
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    registration_endpoint: `${base}/oauth/register`,
    scopes_supported: [...GRANTABLE_SCOPES],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    service_documentation: `${base}${MCP_PATH}/setup`,
  };
}

/** A redirect back to a client: https anywhere, http only to this machine (native and CLI clients). */
function isAcceptableRedirect(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash || url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

export interface ClientRegistration {
  client_name?: unknown;
  redirect_uris?: unknown;
  token_endpoint_auth_method?: unknown;
  grant_types?: unknown;
  response_types?: unknown;
}

/** Dynamic client registration (RFC 7591), public clients only. */
export async function registerClient(body: ClientRegistration) {
  const uris = body.redirect_uris;
  if (
    !Array.isArray(uris) ||
    uris.length === 0 ||
    uris.length > 10 ||
    !uris.every((u) => typeof u === 'string' && u.length <= 2000 && isAcceptableRedirect(u))
  ) {
    throw new OAuthError('invalid_redirect_uri', 'redirect_uris: 1 to 10 https URLs (http only for localhost), without fragment or credentials');
  }
  if (body.token_endpoint_auth_method !== undefined && body.token_endpoint_auth_method !== 'none') {
    throw new OAuthError('invalid_client_metadata', 'Only public clients are registered: token_endpoint_auth_method "none" with PKCE');
  }
  const name =
    typeof body.client_name === 'string' && body.client_name.trim()
      ? body.client_name
          .trim()
          .slice(0, 100)
          .replace(/\u0000/g, '')
      : 'Assistant';
  const client = await db.oAuthClient.create({ data: { name, redirectUris: uris as string[] } });
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code'],
    response_types: ['code'],
  };
}

export interface AuthorizeParams {
  response_type?: string | null;
  client_id?: string | null;
  redirect_uri?: string | null;
  code_challenge?: string | null;
  code_challenge_method?: string | null;
  state?: string | null;
  scope?: string | null;
  resource?: string | null;
}

export interface CheckedAuthorization {
  client: { id: string; name: string };
  redirectUri: string;
  codeChallenge: string;
  state: string | null;
  /** Requested scopes that can be granted (all grantable ones when none were asked for). */
  scopes: Scope[];
  resource: string | null;
}

/**
 * Checks an authorization request. Errors about the client or its redirect are shown to the
 * member (never redirected to an unverified address); the rest go back to the client.
 */
export async function checkAuthorization(p: AuthorizeParams): Promise<CheckedAuthorization> {
  const client = p.client_id && isUuid(p.client_id) ? await db.oAuthClient.findUnique({ where: { id: p.client_id } }) : null;
  if (!client) throw new OAuthError('invalid_client', 'This assistant is not registered with Herald');
  const redirectUri = p.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0]! : null);
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) throw new OAuthError('invalid_request', 'redirect_uri is not one the assistant registered');
  if (p.response_type !== 'code') throw new OAuthError('unsupported_response_type', 'response_type must be code');
  if (!p.code_challenge || p.code_challenge_method !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(p.code_challenge)) {
    throw new OAuthError('invalid_request', 'PKCE is required: code_challenge (S256) and code_challenge_method=S256');
  }
  if (p.resource && p.resource !== resourceUrl()) throw new OAuthError('invalid_target', `resource must be ${resourceUrl()}`);
  const requested = (p.scope ?? '').split(' ').filter(Boolean);
  const unknown = requested.find((s) => !(GRANTABLE_SCOPES as readonly string[]).includes(s));
  if (unknown) throw new OAuthError('invalid_scope', `${unknown} cannot be granted to an assistant`);
  return {
    client: { id: client.id, name: client.name },
    redirectUri,
    codeChallenge: p.code_challenge,
    state: p.state ?? null,
    scopes: (requested.length ? requested : GRANTABLE_SCOPES) as Scope[],
    resource: p.resource ?? null,
  };
}

/** The workspaces a member can connect an assistant to: where they may mint keys, and the clients those manage. */
export async function grantableWorkspaces(userId: string): Promise<Array<{ id: string; name: string }>> {
  const memberships = await db.membership.findMany({ where: { userId, role: { in: GRANTING_ROLES } }, select: { workspaceId: true } });
  const ids = memberships.map((m) => m.workspaceId);
  if (ids.length === 0) return [];
  return db.workspace.findMany({
    where: { OR: [{ id: { in: ids } }, { managedById: { in: ids } }] },
    select: { id: true, name: true },
    orderBy: [{ managedById: { sort: 'asc', nulls: 'first' } }, { name: 'asc' }],
  });
}

const hash = (code: string) => createHash('sha256').update(code).digest('hex');

function redirectWith(uri: string, params: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url.toString();
}

/** The member's answer: a redirect to the client carrying a one-time code, or access_denied. */
export async function decide(opts: {
  userId: string;
  request: CheckedAuthorization;
  approve: boolean;
  workspaceId?: string | null;
  scopes?: readonly string[];
}): Promise<string> {
  const { request } = opts;
  if (!opts.approve)
    return redirectWith(request.redirectUri, { error: 'access_denied', error_description: 'The member declined', state: request.state, iss: issuer() });
  const workspaces = await grantableWorkspaces(opts.userId);
  const workspace = workspaces.find((w) => w.id === opts.workspaceId);
  if (!workspace) throw new OAuthError('access_denied', 'Choose a workspace you can connect an assistant to', 403);
  const scopes = (opts.scopes ?? request.scopes).filter((s): s is Scope => request.scopes.includes(s as Scope));
  if (scopes.length === 0) throw new OAuthError('invalid_scope', 'Grant at least one scope');
  const code = randomBytes(32).toString('base64url');
  await db.oAuthCode.create({
    data: {
      codeHash: hash(code),
      clientId: request.client.id,
      userId: opts.userId,
      workspaceId: workspace.id,
      scopes,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
    },
  });
  return redirectWith(request.redirectUri, { code, state: request.state, iss: issuer() });
}

/** The token endpoint: a code (once, within its time, with the PKCE verifier) for an access token. */
export async function exchangeCode(form: URLSearchParams) {
  if (form.get('grant_type') !== 'authorization_code') throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code');
  const code = form.get('code') ?? '';
  const verifier = form.get('code_verifier') ?? '';
  const row = code ? await db.oAuthCode.findUnique({ where: { codeHash: hash(code) }, include: { client: true } }) : null;
  if (!row) throw new OAuthError('invalid_grant', 'Unknown authorization code');
  if (row.clientId !== form.get('client_id')) throw new OAuthError('invalid_grant', 'The code was issued to another client');
  if (row.redirectUri !== (form.get('redirect_uri') ?? row.redirectUri))
    throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request');
  if (row.usedAt) {
    // A code presented twice may have been intercepted: the key it gave is revoked (RFC 6749 §4.1.2).
    if (row.apiKeyId) await db.apiKey.updateMany({ where: { id: row.apiKeyId, revokedAt: null }, data: { revokedAt: new Date() } });
    throw new OAuthError('invalid_grant', 'The authorization code was already used');
  }
  if (row.expiresAt.getTime() <= Date.now()) throw new OAuthError('invalid_grant', 'The authorization code expired');
  if (createHash('sha256').update(verifier).digest('base64url') !== row.codeChallenge)
    throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
  const claimed = await db.oAuthCode.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: new Date() } });
  if (claimed.count === 0) throw new OAuthError('invalid_grant', 'The authorization code was already used');
  const key = await createApiKey({
    workspaceId: row.workspaceId,
    name: `Assistant connection: ${row.client.name}`.slice(0, 120),
    scopes: row.scopes as Scope[],
    expiresAt: null,
  });
  await db.$transaction([
    db.apiKey.update({ where: { id: key.id }, data: { oauthClientId: row.clientId } }),
    db.oAuthCode.update({ where: { id: row.id }, data: { apiKeyId: key.id } }),
  ]);
  return { access_token: key.secret, token_type: 'Bearer', scope: key.scopes.join(' ') };
}
