// Signing an assistant client in without a pasted key (the tool protocol's authorization
// flow): the client registers itself, a member signs in, picks a workspace and scopes and
// consents; the client exchanges the one-time code (PKCE S256) for an access token, which is
// an API key minted for that workspace — same scopes, limits and revocation as any key, and
// listed with the workspace's keys as an "assistant connection". The token lasts an hour and
// is valid at the tool endpoint only; a rotating refresh token renews it (the key's secret
// changes, the connection stays one key).
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { createApiKey, rotateKeySecret } from '@/server/api-keys/mint-api-key';
import { isWellFormedKey, keyMatches, prefixOf } from '@/server/auth/api-key-secret';
import { SCOPES, type Scope } from '@/server/auth/scopes';
import { homeMembershipOf } from '@/server/auth/staff-actor';
import { env } from '@/server/config/env';
import { db } from '@/server/db/client';
import { recordSecurityEvent } from '@/server/security-events/security-events';
import { isUuid } from '@/server/shared/schemas';
import { MCP_PATH } from '@/server/shared/paths';
import { isLoopbackHost } from '@/server/shared/loopback';
import { canonicalToolsets, DEFAULT_TOOLSETS, isToolsetName, parseToolsets, TOOLSETS_PARAM, type ToolsetName } from '@/server/shared/toolsets';

/** How long a granted code may wait for its exchange. */
export const CODE_TTL_MS = 10 * 60_000;
/** An access token's life: short, so a leaked one is soon worthless; the refresh token renews it. */
export const ACCESS_TOKEN_TTL_MS = 60 * 60_000;
/** A refresh token's life from its issue; each use gives a new one, so a connection in use never lapses. */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;
/** Scopes an assistant connection can be given: every key scope except managing workspaces. */
export const GRANTABLE_SCOPES: readonly Scope[] = SCOPES.filter((s) => s !== 'workspaces:manage');
/** Members who may connect an assistant to a workspace (they can mint keys for it). */
const GRANTING_ROLES = ['owner', 'admin'];
const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;

/**
 * An OAuth protocol error: RFC 6749's `{ error, error_description }`, never Herald's envelope.
 * `redirectTo` is set on authorization errors that go back to the client (its redirect URI
 * carrying error, error_description and state); without it the error is shown to the member.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly redirectTo?: string,
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
    revocation_endpoint: `${base}/oauth/revoke`,
    scopes_supported: [...GRANTABLE_SCOPES],
    response_types_supported: ['code'],
    grant_types_supported: [...GRANT_TYPES],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}${MCP_PATH}/setup`,
  };
}

// ───────────── Redirect URIs (RFC 8252 for desktop clients) ─────────────

/** Schemes a browser acts on itself instead of handing the address to an app: never a redirect. */
const REFUSED_SCHEMES = [
  'javascript:',
  'data:',
  'file:',
  'blob:',
  'about:',
  'vbscript:',
  'filesystem:',
  'view-source:',
  'ws:',
  'wss:',
  'ftp:',
  'mailto:',
  'tel:',
  'sms:',
];

function parseUri(uri: string): URL | null {
  try {
    return new URL(uri);
  } catch {
    return null;
  }
}

const isLoopback = (url: URL) => url.protocol === 'http:' && isLoopbackHost(url.hostname);

/**
 * A redirect back to a client: https anywhere; http only to this machine (loopback, RFC 8252
 * §7.3); or an app's own scheme (`cursor://…`, `vscode://…`, `com.example.app:/cb`, §7.1).
 * Never a fragment or credentials, nor a scheme the browser would run or read itself.
 */
function isAcceptableRedirect(uri: string): boolean {
  const url = parseUri(uri);
  if (!url || uri.includes('#') || url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return isLoopback(url);
  return !REFUSED_SCHEMES.includes(url.protocol);
}

/**
 * Whether a requested redirect URI is one the client registered: exactly, or for loopback
 * with any port (RFC 8252 §7.3: a desktop client listens on whatever port is free).
 */
function redirectMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  const a = parseUri(registered);
  const b = parseUri(requested);
  if (!a || !b || !isLoopback(a) || !isLoopback(b) || requested.includes('#')) return false;
  a.port = '';
  b.port = '';
  return a.href === b.href;
}

// ───────────── Registration (RFC 7591) ─────────────

const registrationSchema = z.object({
  client_name: z.unknown().optional(),
  redirect_uris: z.array(z.string().max(2000).refine(isAcceptableRedirect)).min(1).max(10),
  token_endpoint_auth_method: z.literal('none').optional(),
  grant_types: z
    .array(z.enum(GRANT_TYPES))
    .refine((types) => types.includes('authorization_code'))
    .optional(),
  response_types: z.array(z.literal('code')).optional(),
});

export type ClientRegistration = Record<string, unknown>;

/**
 * Dynamic client registration, public clients only. grant_types are kept as asked (a client
 * leaving out refresh_token gets no refresh tokens); omitted, they are both: the form clients
 * expect from a server that issues hour-long tokens (RFC 7591 lets the server fill them in).
 */
export async function registerClient(body: ClientRegistration) {
  const parsed = registrationSchema.safeParse(body);
  if (!parsed.success) {
    if (parsed.error.issues.some((i) => i.path[0] === 'redirect_uris'))
      throw new OAuthError(
        'invalid_redirect_uri',
        'redirect_uris: 1 to 10 URIs, each https, http to a loopback address (127.0.0.1, [::1], localhost), or an app scheme; no fragment or credentials',
      );
    if (parsed.error.issues.some((i) => i.path[0] === 'token_endpoint_auth_method'))
      throw new OAuthError('invalid_client_metadata', 'Only public clients are registered: token_endpoint_auth_method "none" with PKCE');
    throw new OAuthError('invalid_client_metadata', 'grant_types: authorization_code, optionally refresh_token; response_types: code');
  }
  const { client_name, redirect_uris, grant_types } = parsed.data;
  const name =
    typeof client_name === 'string' && client_name.trim()
      ? client_name
          .trim()
          .slice(0, 100)
          .replace(/\u0000/g, '')
      : 'Assistant';
  const grantTypes = GRANT_TYPES.filter((g) => (grant_types ?? GRANT_TYPES).includes(g));
  const client = await db.oAuthClient.create({ data: { name, redirectUris: redirect_uris, grantTypes } });
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: 'none',
    grant_types: client.grantTypes,
    response_types: ['code'],
  };
}

// ───────────── Authorization ─────────────

const param = z.string().max(2000).nullish();
const authorizeSchema = z.object({
  response_type: param,
  client_id: param,
  redirect_uri: param,
  code_challenge: param,
  code_challenge_method: param,
  state: param,
  scope: param,
  resource: param,
});
export type AuthorizeParams = z.input<typeof authorizeSchema>;

export interface CheckedAuthorization {
  client: { id: string; name: string };
  redirectUri: string;
  codeChallenge: string;
  state: string | null;
  /** Requested scopes that can be granted (all grantable ones when none were asked for). */
  scopes: Scope[];
  /** The resource the token will be valid at: always the tool endpoint (RFC 8707). */
  resource: string;
  /**
   * The toolsets the consent page ticks first: those the client's `resource` named
   * (`…/public/v1/mcp?toolsets=inbox`, the URL it was given), else the default.
   */
  toolsets: ToolsetName[];
}

/**
 * A `resource` naming the tool endpoint: its URL exactly, or with the `toolsets` query a
 * member may have put in the URL they gave their client (some clients send that URL as the
 * resource). Null for anything else. The token is bound to the bare URL either way.
 */
function toolEndpointResource(value: string): { toolsets: ToolsetName[] | null } | null {
  if (value === resourceUrl()) return { toolsets: null };
  const url = parseUri(value);
  if (!url || value.includes('#') || `${url.origin}${url.pathname}` !== resourceUrl()) return null;
  if ([...url.searchParams.keys()].some((k) => k !== TOOLSETS_PARAM)) return null;
  const parsed = parseToolsets(url.searchParams.getAll(TOOLSETS_PARAM).join(','));
  return 'error' in parsed ? null : { toolsets: parsed.toolsets };
}

function redirectWith(uri: string, params: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * Checks an authorization request. An unknown client or a redirect URI it did not register is
 * shown to the member (never redirected to an address not verified as the client's); once
 * both are known good, every other error goes back to the client (RFC 6749 §4.1.2.1).
 */
export async function checkAuthorization(raw: AuthorizeParams): Promise<CheckedAuthorization> {
  const parsed = authorizeSchema.safeParse(raw);
  if (!parsed.success) throw new OAuthError('invalid_request', 'The sign-in request has malformed parameters');
  const p = parsed.data;
  const client = p.client_id && isUuid(p.client_id) ? await db.oAuthClient.findUnique({ where: { id: p.client_id } }) : null;
  if (!client) throw new OAuthError('invalid_client', 'This assistant is not registered with Herald');
  const redirectUri = p.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0]! : null);
  if (!redirectUri || !client.redirectUris.some((r) => redirectMatches(r, redirectUri)))
    throw new OAuthError('invalid_request', 'redirect_uri is not one the assistant registered');
  const state = p.state ?? null;
  const back = (error: string, description: string) =>
    new OAuthError(error, description, 400, redirectWith(redirectUri, { error, error_description: description, state, iss: issuer() }));
  if (p.response_type !== 'code') throw back('unsupported_response_type', 'response_type must be code');
  if (!p.code_challenge || p.code_challenge_method !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(p.code_challenge)) {
    throw back('invalid_request', 'PKCE is required: code_challenge (S256) and code_challenge_method=S256');
  }
  const named = toolEndpointResource(p.resource ?? resourceUrl());
  if (!named) throw back('invalid_target', `resource must be ${resourceUrl()}`);
  const requested = (p.scope ?? '').split(' ').filter(Boolean);
  const unknown = requested.find((s) => !(GRANTABLE_SCOPES as readonly string[]).includes(s));
  if (unknown) throw back('invalid_scope', `${unknown} cannot be granted to an assistant`);
  return {
    client: { id: client.id, name: client.name },
    redirectUri,
    codeChallenge: p.code_challenge,
    state,
    scopes: (requested.length ? requested : GRANTABLE_SCOPES) as Scope[],
    resource: resourceUrl(),
    toolsets: named.toolsets ?? [...DEFAULT_TOOLSETS],
  };
}

const membershipsOf = (userId: string) =>
  db.membership.findMany({ where: { userId }, orderBy: { createdAt: 'asc' }, select: { workspaceId: true, role: true } });

async function grantableAmong(memberships: Array<{ workspaceId: string; role: string }>): Promise<Array<{ id: string; name: string }>> {
  const ids = memberships.filter((m) => GRANTING_ROLES.includes(m.role)).map((m) => m.workspaceId);
  if (ids.length === 0) return [];
  return db.workspace.findMany({
    where: { OR: [{ id: { in: ids } }, { managedById: { in: ids } }] },
    select: { id: true, name: true },
    orderBy: [{ managedById: { sort: 'asc', nulls: 'first' } }, { name: 'asc' }],
  });
}

/** The workspaces a member can connect an assistant to: where they may mint keys, and the clients those manage. */
export async function grantableWorkspaces(userId: string): Promise<Array<{ id: string; name: string }>> {
  return grantableAmong(await membershipsOf(userId));
}

/**
 * The consent page's choice: the grantable workspaces, with the one the member last used in
 * the app (its workspace cookie) selected, else their own (home) workspace, else the first.
 */
export async function consentWorkspaces(userId: string, lastUsedId: string | null | undefined) {
  const memberships = await membershipsOf(userId);
  const workspaces = await grantableAmong(memberships);
  const selectedId = [lastUsedId, homeMembershipOf(memberships)?.workspaceId].find((id) => workspaces.some((w) => w.id === id)) ?? workspaces[0]?.id ?? null;
  return { workspaces, selectedId };
}

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The member's answer: a redirect to the client carrying a one-time code, or access_denied. */
export async function decide(opts: {
  userId: string;
  request: CheckedAuthorization;
  approve: boolean;
  workspaceId?: string | null;
  scopes?: readonly string[];
  /** The toolsets ticked; undefined (a form without the choice): the request's. */
  toolsets?: readonly string[];
}): Promise<string> {
  const { request } = opts;
  if (!opts.approve)
    return redirectWith(request.redirectUri, { error: 'access_denied', error_description: 'The member declined', state: request.state, iss: issuer() });
  // The member's own form mistakes are shown to them, who can correct them, not sent to the client.
  const workspaces = await grantableWorkspaces(opts.userId);
  const workspace = workspaces.find((w) => w.id === opts.workspaceId);
  if (!workspace) throw new OAuthError('access_denied', 'Choose a workspace you can connect an assistant to', 403);
  const scopes = (opts.scopes ?? request.scopes).filter((s): s is Scope => request.scopes.includes(s as Scope));
  if (scopes.length === 0) throw new OAuthError('invalid_scope', 'Grant at least one scope');
  const ticked = opts.toolsets ?? request.toolsets;
  if (ticked.some((t) => !isToolsetName(t))) throw new OAuthError('invalid_request', 'Choose among the toolsets shown');
  const toolsets = canonicalToolsets(ticked);
  if (toolsets.length === 0) throw new OAuthError('invalid_request', 'Choose at least one toolset');
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
      toolsets,
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
    },
  });
  return redirectWith(request.redirectUri, { code, state: request.state, iss: issuer() });
}

// ───────────── Tokens ─────────────

const formField = z.string().max(2000).optional();
const codeGrantSchema = z.object({
  code: z.string().min(1).max(200),
  code_verifier: z.string().max(200).default(''),
  client_id: formField,
  redirect_uri: formField,
  resource: formField,
});
const refreshGrantSchema = z.object({
  refresh_token: z.string().min(1).max(200),
  client_id: formField,
  scope: formField,
  resource: formField,
});
const revokeSchema = z.object({ token: z.string().min(1).max(2000), client_id: formField, token_type_hint: formField });

function formOf<T extends z.ZodType>(schema: T, form: URLSearchParams): z.output<T> {
  const parsed = schema.safeParse(Object.fromEntries(form));
  if (!parsed.success) throw new OAuthError('invalid_request', `Missing or malformed ${String(parsed.error.issues[0]?.path[0] ?? 'parameter')}`);
  return parsed.data;
}

/**
 * RFC 8707 at the token endpoint: a token is only for the tool endpoint. A `resource` the
 * client names must be it, and the one the grant was bound to as well.
 */
function checkResource(requested: string | undefined, bound: string | null): string {
  const resource = requested === undefined || toolEndpointResource(requested) ? resourceUrl() : requested;
  if (resource !== resourceUrl() || (bound !== null && bound !== resource)) throw new OAuthError('invalid_target', `resource must be ${resourceUrl()}`);
  return resource;
}

/** A refresh token's issue: the secret once to the client, its hash kept. */
async function issueRefreshToken(apiKeyId: string, clientId: string): Promise<string> {
  const token = `hrt_${randomBytes(32).toString('base64url')}`;
  await db.oAuthRefreshToken.create({ data: { tokenHash: hash(token), apiKeyId, clientId, expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS) } });
  return token;
}

/**
 * Ends an assistant connection: its key (every access token) and every refresh token of it.
 * What a replayed code or rotated refresh token does (they may have been stolen), and what
 * /oauth/revoke does.
 */
async function revokeConnection(apiKeyId: string): Promise<void> {
  const now = new Date();
  const [revoked] = await db.$transaction([
    db.apiKey.updateMany({ where: { id: apiKeyId, revokedAt: null }, data: { revokedAt: now } }),
    db.oAuthRefreshToken.updateMany({ where: { apiKeyId, revokedAt: null }, data: { revokedAt: now } }),
  ]);
  if (revoked.count) {
    const key = await db.apiKey.findUnique({ where: { id: apiKeyId }, select: { workspaceId: true, prefix: true } });
    await recordSecurityEvent({
      kind: 'key.revoked',
      workspaceId: key?.workspaceId ?? null,
      detail: { keyId: apiKeyId, prefix: key?.prefix, assistant: true },
    });
  }
}

function tokenResponse(accessToken: string, scopes: readonly string[], refreshToken: string | null) {
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_MS / 1000,
    scope: scopes.join(' '),
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
  };
}

/** The token endpoint: an authorization code or a refresh token for an access token. */
export async function exchangeToken(form: URLSearchParams) {
  switch (form.get('grant_type')) {
    case 'authorization_code':
      return exchangeCode(formOf(codeGrantSchema, form));
    case 'refresh_token':
      return refresh(formOf(refreshGrantSchema, form));
    default:
      throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }
}

/** A code (once, within its time, with the PKCE verifier) for an access token and a refresh token. */
async function exchangeCode(form: z.output<typeof codeGrantSchema>) {
  const row = await db.oAuthCode.findUnique({ where: { codeHash: hash(form.code) }, include: { client: true } });
  if (!row) throw new OAuthError('invalid_grant', 'Unknown authorization code');
  if (row.clientId !== form.client_id) throw new OAuthError('invalid_grant', 'The code was issued to another client');
  if (row.redirectUri !== (form.redirect_uri ?? row.redirectUri)) throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request');
  if (row.usedAt) {
    // A code presented twice may have been intercepted: the connection it gave ends (RFC 6749 §4.1.2).
    if (row.apiKeyId) await revokeConnection(row.apiKeyId);
    throw new OAuthError('invalid_grant', 'The authorization code was already used');
  }
  if (row.expiresAt.getTime() <= Date.now()) throw new OAuthError('invalid_grant', 'The authorization code expired');
  if (createHash('sha256').update(form.code_verifier).digest('base64url') !== row.codeChallenge)
    throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
  const resource = checkResource(form.resource, row.resource);
  const claimed = await db.oAuthCode.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: new Date() } });
  if (claimed.count === 0) throw new OAuthError('invalid_grant', 'The authorization code was already used');
  const key = await createApiKey({
    workspaceId: row.workspaceId,
    name: `Assistant connection: ${row.client.name}`.slice(0, 120),
    scopes: row.scopes as Scope[],
    expiresAt: new Date(Date.now() + ACCESS_TOKEN_TTL_MS),
    by: { kind: 'staff', userId: row.userId },
    oauthClientId: row.clientId,
  });
  await db.$transaction([
    // The toolsets the member chose: the connection's sessions open with them when its URL names none.
    db.apiKey.update({ where: { id: key.id }, data: { oauthClientId: row.clientId, resource, toolsets: row.toolsets } }),
    db.oAuthCode.update({ where: { id: row.id }, data: { apiKeyId: key.id } }),
  ]);
  const refreshToken = row.client.grantTypes.includes('refresh_token') ? await issueRefreshToken(key.id, row.clientId) : null;
  return tokenResponse(key.secret, key.scopes, refreshToken);
}

/**
 * A refresh token for a new access token and a new refresh token (rotation, OAuth 2.1 §4.3.1).
 * The old refresh token is spent; presented again, it ends the whole connection, since either
 * the client or a thief holds a copy and Herald cannot tell which.
 */
async function refresh(form: z.output<typeof refreshGrantSchema>) {
  const row = await db.oAuthRefreshToken.findUnique({ where: { tokenHash: hash(form.refresh_token) }, include: { apiKey: true, client: true } });
  if (!row || row.clientId !== form.client_id) throw new OAuthError('invalid_grant', 'Unknown refresh token');
  if (row.rotatedAt) {
    await revokeConnection(row.apiKeyId);
    throw new OAuthError('invalid_grant', 'The refresh token was already used: the connection is revoked; sign in again');
  }
  if (row.revokedAt || row.apiKey.revokedAt) throw new OAuthError('invalid_grant', 'The connection was revoked; sign in again');
  if (row.expiresAt.getTime() <= Date.now()) throw new OAuthError('invalid_grant', 'The refresh token expired; sign in again');
  if (!row.client.grantTypes.includes('refresh_token')) throw new OAuthError('unauthorized_client', 'The client did not register the refresh_token grant');
  checkResource(form.resource, row.apiKey.resource);
  // A narrower scope may be asked for (RFC 6749 §6); never one the member did not grant.
  const asked = (form.scope ?? '').split(' ').filter(Boolean);
  const notGranted = asked.find((s) => !row.apiKey.scopes.includes(s));
  if (notGranted) throw new OAuthError('invalid_scope', `${notGranted} was not granted`);
  const scopes = SCOPES.filter((s) => (asked.length ? asked : row.apiKey.scopes).includes(s));
  const spent = await db.oAuthRefreshToken.updateMany({ where: { id: row.id, rotatedAt: null, revokedAt: null }, data: { rotatedAt: new Date() } });
  if (spent.count === 0) {
    // Two uses at once: the same as a replay.
    await revokeConnection(row.apiKeyId);
    throw new OAuthError('invalid_grant', 'The refresh token was already used: the connection is revoked; sign in again');
  }
  const accessToken = await rotateKeySecret(row.apiKeyId, { expiresAt: new Date(Date.now() + ACCESS_TOKEN_TTL_MS), scopes });
  return tokenResponse(accessToken, scopes, await issueRefreshToken(row.apiKeyId, row.clientId));
}

/**
 * Token revocation (RFC 7009): an access token or a refresh token ends its connection. An
 * unknown token, or one of another client, answers the same as a revoked one (§2.2).
 */
export async function revokeToken(form: URLSearchParams): Promise<void> {
  const { token, client_id } = formOf(revokeSchema, form);
  let apiKeyId: string | null = null;
  let clientId: string | null = null;
  if (isWellFormedKey(token)) {
    const key = await db.apiKey.findUnique({ where: { prefix: prefixOf(token) }, select: { id: true, hash: true, oauthClientId: true } });
    // Only assistant connections: a pasted key is revoked in Herald, by a member.
    if (key?.oauthClientId && keyMatches(token, key.hash)) [apiKeyId, clientId] = [key.id, key.oauthClientId];
  } else {
    const row = await db.oAuthRefreshToken.findUnique({ where: { tokenHash: hash(token) }, select: { apiKeyId: true, clientId: true } });
    if (row) [apiKeyId, clientId] = [row.apiKeyId, row.clientId];
  }
  if (apiKeyId && (client_id === undefined || client_id === clientId)) await revokeConnection(apiKeyId);
}
