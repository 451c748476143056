// One channel-connect attempt on the hosted page, from the session to a stored connection.
//
//   1. mintConnectSession: a 15-minute session bound to its link (token stored as a hash).
//   2. startChannelConnect: spends the session on one platform. Sandbox channels connect a
//      demo account at once; OAuth channels get an authorize URL whose `state` (stored as a
//      hash) and PKCE verifier (sealed) belong to this session only.
//   3. completeOAuthCallback: the platform redirects the browser back; `state` must match the
//      session named by the browser's cookie, the session must still be waiting, and only then
//      is the code exchanged (once: the session moves on before the exchange starts).
//   4. chooseAccount: for Meta, the client picks the Page or business account to connect.
//
// The browser carries `<link token>.<session token>` in an HttpOnly cookie from step 2 to 4:
// the callback needs the link to return to, and the cookie ties the callback to the browser
// that started it (a callback URL replayed elsewhere finds no session).
import { createHash, randomBytes } from 'node:crypto';
import { hashLinkToken, isWellFormedLinkToken, newLinkToken } from '@/server/client-links/link-tokens';
import { resolveClientLink, type LiveClientLink } from '@/server/client-links/resolve-client-link';
import { saveConnectedAccount } from '@/server/connections/save-connected-account';
import { openValue, sealValue } from '@/server/connections/token-sealing';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { defaultFetch, type Fetcher } from '@/server/platforms/http';
import { oauthApps } from '@/server/platforms/oauth-apps';
import type { Platform } from '@/server/shared/platforms';
import { isPlatform } from '@/server/shared/platforms';
import { channelMode, oauthCallbackUrl } from './channels';
import { CONNECT_SESSION_MS } from './connect.schemas';
import { isCredentialsProvider, OAuthFlowError, type GrantedAccount, type OAuthProvider } from './oauth/oauth-provider';
import { oauthProviders } from './oauth/providers';
import { sandboxAccount } from './sandbox-account';
import { log } from '@/server/observability/log';

export const CONNECT_COOKIE = 'herald_connect';

function oauthProviderOf(platform: Platform): OAuthProvider {
  const provider = oauthProviders[platform];
  if (isCredentialsProvider(provider)) throw new AppError('VALIDATION_FAILED', `${provider.label} connects without a sign-in page`, { field: 'platform' });
  return provider;
}

const sessionInvalid = (why: string) => new AppError('CONNECT_SESSION_INVALID', why);

/** The link behind a session-bearing call; a link no longer live makes every session invalid. */
async function linkForSession(token: string): Promise<LiveClientLink> {
  try {
    return await resolveClientLink(token, 'connect');
  } catch (error) {
    if (error instanceof AppError && (error.code === 'CONNECT_TOKEN_INVALID' || error.code === 'CONNECT_TOKEN_EXPIRED')) {
      throw sessionInvalid('The connect link behind this session is no longer live');
    }
    throw error;
  }
}

export async function mintConnectSession(token: string): Promise<{ session: string; expiresAt: string }> {
  const link = await resolveClientLink(token, 'connect');
  const session = newLinkToken();
  // Never outlives its link.
  const expiresAt = new Date(Math.min(Date.now() + CONNECT_SESSION_MS, link.expiresAt.getTime()));
  await db.connectSession.create({ data: { linkId: link.id, tokenHash: hashLinkToken(session), expiresAt } });
  // Housekeeping: a link's sessions that ended over an hour ago are of no use to anyone (and an
  // abandoned account choice still holds sealed Page tokens).
  await db.connectSession.deleteMany({ where: { linkId: link.id, expiresAt: { lt: new Date(Date.now() - 3_600_000) } } });
  return { session, expiresAt: expiresAt.toISOString() };
}

export type StartOutcome =
  | { kind: 'redirect'; authorizeUrl: string; attempt: string }
  | { kind: 'connected'; attempt: string; connection: { id: string; platform: Platform; accountName: string; displayName: string } };

function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function startChannelConnect(args: { token: string; session: string; platform: Platform }): Promise<StartOutcome> {
  const link = await linkForSession(args.token);
  const mode = channelMode(args.platform);
  if (mode === 'unavailable')
    throw new AppError('VALIDATION_FAILED', `${oauthProviders[args.platform].label} is not available on this page`, { field: 'platform' });

  const session = isWellFormedLinkToken(args.session) ? await db.connectSession.findUnique({ where: { tokenHash: hashLinkToken(args.session) } }) : null;
  if (!session || session.linkId !== link.id) throw sessionInvalid('Unknown connect session');

  const state = randomBytes(32).toString('base64url');
  const provider = oauthProviderOf(args.platform);
  const pkce = mode === 'oauth' && provider.pkce ? pkcePair() : null;
  // One attempt per session: only an open, unexpired session moves on.
  const claimed = await db.connectSession.updateMany({
    where: { id: session.id, status: 'open', expiresAt: { gt: new Date() } },
    data: {
      platform: args.platform,
      status: mode === 'oauth' ? 'authorizing' : 'connecting',
      stateHash: mode === 'oauth' ? hashLinkToken(state) : null,
      codeVerifierSealed: pkce ? sealValue(pkce.verifier) : null,
    },
  });
  if (claimed.count !== 1) throw sessionInvalid('This connect session has expired or was used already; start again');

  if (mode === 'sandbox') {
    const account = sandboxAccount(args.platform, link.workspace.name);
    const saved = await saveConnectedAccount({ link, platform: args.platform, provider: 'sandbox', account });
    await db.connectSession.update({ where: { id: session.id }, data: { status: 'completed', connectionId: saved.id } });
    return {
      kind: 'connected',
      attempt: session.id,
      connection: { id: saved.id, platform: args.platform, accountName: account.accountName, displayName: account.displayName },
    };
  }

  const app = oauthApps[args.platform]()!;
  const authorizeUrl = provider.authorizeUrl({ app, state, redirectUri: oauthCallbackUrl(args.platform), codeChallenge: pkce?.challenge ?? null });
  return { kind: 'redirect', authorizeUrl, attempt: session.id };
}

export interface CallbackOutcome {
  /** Where to send the browser, relative to the connect base; null when the browser is not the one that started. */
  location: string | null;
  message?: string;
}

export function parseConnectCookie(value: string | undefined | null): { token: string; session: string } | null {
  const [token, session, extra] = (value ?? '').split('.');
  if (!token || !session || extra !== undefined || !isWellFormedLinkToken(token) || !isWellFormedLinkToken(session)) return null;
  return { token, session };
}

function describeDenial(label: string, error: string, description: string | null): string {
  if (error === 'access_denied' || error === 'user_cancelled_login' || error === 'user_cancelled_authorize') {
    return `You cancelled the connection on ${label}. Nothing was connected.`;
  }
  // The platform's words, shortened: they are shown on the page as they came.
  return `${label} did not complete the connection: ${(description ?? error).slice(0, 300)}. Please try again.`;
}

export async function completeOAuthCallback(args: {
  platform: string;
  params: URLSearchParams;
  cookie: { token: string; session: string } | null;
  fetch?: Fetcher;
}): Promise<CallbackOutcome> {
  const { params, cookie } = args;
  if (!cookie) {
    return { location: null, message: 'This sign-in did not start in this browser, or took longer than 15 minutes. Open your connect link again and retry.' };
  }
  const page = `/connect/${cookie.token}`;
  let link: LiveClientLink;
  try {
    link = await resolveClientLink(cookie.token, 'connect');
  } catch {
    return { location: page }; // the page explains the expired or revoked link
  }
  const session = await db.connectSession.findUnique({ where: { tokenHash: hashLinkToken(cookie.session) } });
  const state = params.get('state');
  if (!session || session.linkId !== link.id || !isPlatform(args.platform)) return { location: `${page}?error=session` };
  // The state is checked against this browser's session only; a mismatch leaves the session as it was.
  if (!state || !session.stateHash || hashLinkToken(state) !== session.stateHash) return { location: `${page}?error=state` };
  const attempt = `${page}?attempt=${session.id}`;
  if (session.platform !== args.platform) return { location: `${page}?error=state` };

  // Exactly one callback exchanges the code: a replayed one finds the session moved on.
  const claimed = await db.connectSession.updateMany({
    where: { id: session.id, status: 'authorizing', expiresAt: { gt: new Date() } },
    data: { status: 'exchanging' },
  });
  if (claimed.count !== 1) {
    if (session.status === 'authorizing') await fail(session.id, 'The 15-minute connect session ran out. Please start again.');
    return { location: attempt };
  }

  const provider = oauthProviderOf(args.platform);
  const error = params.get('error');
  const code = params.get('code');
  if (error || !code) {
    await fail(session.id, describeDenial(provider.label, error ?? 'no code returned', params.get('error_description')));
    return { location: attempt };
  }

  const appConfig = oauthApps[args.platform]();
  if (!appConfig) {
    await fail(session.id, `${provider.label} is no longer available on this page.`);
    return { location: attempt };
  }
  let accounts: GrantedAccount[];
  try {
    const verifier = session.codeVerifierSealed ? openValue(session.codeVerifierSealed) : null;
    accounts = await provider.connect(args.fetch ?? defaultFetch(), {
      app: appConfig,
      code,
      redirectUri: oauthCallbackUrl(args.platform),
      codeVerifier: verifier,
    });
  } catch (err) {
    const message = err instanceof OAuthFlowError ? err.message : `We could not reach ${provider.label} to finish connecting. Please try again in a moment.`;
    if (!(err instanceof OAuthFlowError)) log.warn('connect', `${args.platform} code exchange failed`, err);
    await fail(session.id, message);
    return { location: attempt };
  }

  if (provider.choose) {
    await db.connectSession.update({ where: { id: session.id }, data: { status: 'choosing', choicesSealed: sealValue(JSON.stringify(accounts)) } });
    return { location: attempt };
  }
  const saved = await saveConnectedAccount({ link, platform: args.platform, provider: 'live', account: accounts[0]! });
  await db.connectSession.update({ where: { id: session.id }, data: { status: 'completed', connectionId: saved.id } });
  return { location: attempt };
}

async function fail(sessionId: string, message: string): Promise<void> {
  await db.connectSession.update({ where: { id: sessionId }, data: { status: 'failed', error: message, choicesSealed: null } });
}

function choicesOf(sealed: string | null): GrantedAccount[] {
  const opened = sealed ? openValue(sealed) : null;
  if (!opened) return [];
  return (JSON.parse(opened) as (GrantedAccount & { expiresAt: string | null })[]).map((a) => ({
    ...a,
    expiresAt: a.expiresAt ? new Date(a.expiresAt) : null,
  }));
}

/** After a Meta consent: connects the Page or business account the client picked. */
export async function chooseAccount(args: {
  token: string;
  cookie: { token: string; session: string } | null;
  accountId: string;
}): Promise<{ attempt: string }> {
  const link = await linkForSession(args.token);
  if (!args.cookie || args.cookie.token !== args.token) throw sessionInvalid('No connect session in this browser');
  const session = await db.connectSession.findUnique({ where: { tokenHash: hashLinkToken(args.cookie.session) } });
  if (
    !session ||
    session.linkId !== link.id ||
    session.status !== 'choosing' ||
    session.expiresAt <= new Date() ||
    !session.platform ||
    !isPlatform(session.platform)
  ) {
    throw sessionInvalid('This connect session has expired or was used already; start again');
  }
  const account = choicesOf(session.choicesSealed).find((a) => a.externalId === args.accountId);
  if (!account) throw new AppError('VALIDATION_FAILED', 'That account was not offered in this session', { field: 'accountId' });
  const claimed = await db.connectSession.updateMany({ where: { id: session.id, status: 'choosing' }, data: { status: 'connecting' } });
  if (claimed.count !== 1) throw sessionInvalid('This connect session was used already; start again');
  const saved = await saveConnectedAccount({ link, platform: session.platform, provider: 'live', account });
  await db.connectSession.update({ where: { id: session.id }, data: { status: 'completed', connectionId: saved.id, choicesSealed: null } });
  return { attempt: session.id };
}

export interface AttemptView {
  status: 'completed' | 'failed' | 'choosing' | 'pending';
  platform: Platform | null;
  message: string | null;
  connection: { displayName: string; accountName: string } | null;
  choices: { id: string; displayName: string; accountName: string; avatarUrl: string | null; kind: string | null }[];
}

/** What the page shows after a callback: the outcome, or the accounts to choose from (to the browser that started it only). */
export async function readAttempt(args: { token: string; attemptId: string; sessionToken: string | null }): Promise<AttemptView | null> {
  const link = await resolveClientLink(args.token, 'connect');
  if (!/^[0-9a-f-]{36}$/i.test(args.attemptId)) return null;
  const session = await db.connectSession.findFirst({ where: { id: args.attemptId, linkId: link.id } });
  if (!session) return null;
  const platform = session.platform && isPlatform(session.platform) ? session.platform : null;
  const connection = session.connectionId
    ? await db.connection.findFirst({ where: { id: session.connectionId, workspaceId: link.workspace.id }, select: { displayName: true, accountName: true } })
    : null;
  const mine = args.sessionToken !== null && isWellFormedLinkToken(args.sessionToken) && hashLinkToken(args.sessionToken) === session.tokenHash;
  const status = session.status === 'completed' ? 'completed' : session.status === 'failed' ? 'failed' : session.status === 'choosing' ? 'choosing' : 'pending';
  return {
    status,
    platform,
    message: session.error,
    connection,
    choices:
      status === 'choosing' && mine && session.expiresAt > new Date()
        ? choicesOf(session.choicesSealed).map((a) => ({
            id: a.externalId,
            displayName: a.displayName,
            accountName: a.accountName,
            avatarUrl: a.avatarUrl,
            kind: a.kind ?? null,
          }))
        : [],
  };
}
