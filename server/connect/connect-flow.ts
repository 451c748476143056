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
//   Or, for a network approved in its own app (Farcaster): step 2 asks the network for a request
//   and returns its approval link (what Herald keeps to check it is sealed in the session), and
//   checkApproval, called by the page, asks the network until the request is approved (the
//   account is then connected), refused, or the session is over.
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
import { oauthApps, type OAuthApp } from '@/server/platforms/oauth-apps';
import type { Platform } from '@/server/shared/platforms';
import { isPlatform } from '@/server/shared/platforms';
import { channelFields, channelMode, demoAccountsOffered, oauthCallbackUrl } from './channels';
import { CONNECT_SESSION_MS } from './connect.schemas';
import {
  isApprovalProvider,
  isCredentialsProvider,
  isOAuthProvider,
  OAuthFlowError,
  type ConnectField,
  type GrantedAccount,
  type OAuthProvider,
} from './oauth/oauth-provider';
import { oauthProviders } from './oauth/providers';
import { sandboxAccount } from './sandbox-account';
import { log } from '@/server/observability/log';

export const CONNECT_COOKIE = 'herald_connect';

function oauthProviderOf(platform: Platform): OAuthProvider {
  const provider = oauthProviders[platform];
  if (!isOAuthProvider(provider)) throw new AppError('VALIDATION_FAILED', `${provider.label} connects without a sign-in page`, { field: 'platform' });
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
  /** Approve in the network's own app at `approvalUrl`, then the page checks the attempt (checkApproval). */
  | { kind: 'approve'; approvalUrl: string; attempt: string }
  | { kind: 'connected'; attempt: string; connection: { id: string; platform: Platform; accountName: string; displayName: string } }
  /** Several accounts were offered: the page shows them (readAttempt) for the client to pick one. */
  | { kind: 'choose'; attempt: string };

function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function startChannelConnect(args: {
  token: string;
  session: string;
  platform: Platform;
  /** What the page asked for: a credentials provider's fields, or a federated network's server. */
  values?: Record<string, string>;
  /** A demo account instead of a real one (only where offered). */
  demo?: boolean;
  fetch?: Fetcher;
}): Promise<StartOutcome> {
  const link = await linkForSession(args.token);
  const demoOffered = demoAccountsOffered(link);
  const provider = oauthProviders[args.platform];
  if (args.demo && !demoOffered) throw new AppError('VALIDATION_FAILED', 'Demo accounts are not offered on this page', { field: 'demo' });
  const mode = args.demo ? 'sandbox' : channelMode(args.platform, demoOffered);
  if (mode === 'unavailable') throw new AppError('VALIDATION_FAILED', `${provider.label} is not available on this page`, { field: 'platform' });
  const values = mode === 'sandbox' ? {} : requiredValues(channelFields(args.platform, mode), args.values ?? {});

  const session = isWellFormedLinkToken(args.session) ? await db.connectSession.findUnique({ where: { tokenHash: hashLinkToken(args.session) } }) : null;
  if (!session || session.linkId !== link.id) throw sessionInvalid('Unknown connect session');

  const fetch = args.fetch ?? defaultFetch();
  const oauth = mode === 'oauth' && isOAuthProvider(provider) ? provider : null;
  // A federated network's app lives on the client's server: registered there (once) before the session moves on.
  const app = oauth ? await oauthAppFor(args.platform, oauth, values, fetch) : null;
  const state = randomBytes(32).toString('base64url');
  const pkce = oauth?.pkce ? pkcePair() : null;
  // One attempt per session: only an open, unexpired session moves on.
  const claimed = await db.connectSession.updateMany({
    where: { id: session.id, status: 'open', expiresAt: { gt: new Date() } },
    data: {
      platform: args.platform,
      status: oauth ? 'authorizing' : 'connecting',
      stateHash: oauth ? hashLinkToken(state) : null,
      codeVerifierSealed: pkce ? sealValue(pkce.verifier) : null,
      appSealed: oauth?.instance && app ? sealValue(JSON.stringify(app)) : null,
    },
  });
  if (claimed.count !== 1) throw sessionInvalid('This connect session has expired or was used already; start again');

  if (mode === 'sandbox') {
    const account = sandboxAccount(args.platform, link.workspace.name);
    const saved = await saveConnectedAccount({ link, platform: args.platform, provider: 'sandbox', account });
    await db.connectSession.update({ where: { id: session.id }, data: { status: 'completed', connectionId: saved.id } });
    return connectedOutcome(session.id, args.platform, saved.id, account);
  }

  if (isApprovalProvider(provider)) {
    let started: { approvalUrl: string; pending: string };
    try {
      started = await provider.start(fetch, { expiresAt: session.expiresAt });
    } catch (err) {
      const message = err instanceof OAuthFlowError ? err.message : `We could not reach ${provider.label} to start connecting. Please try again in a moment.`;
      if (!(err instanceof OAuthFlowError)) log.warn('connect', `${args.platform} approval request failed`, err);
      await fail(session.id, message);
      throw new AppError('VALIDATION_FAILED', message, { field: 'platform' });
    }
    await db.connectSession.update({ where: { id: session.id }, data: { status: 'approving', appSealed: sealValue(started.pending) } });
    return { kind: 'approve', approvalUrl: started.approvalUrl, attempt: session.id };
  }

  if (isCredentialsProvider(provider)) {
    let accounts: GrantedAccount[];
    try {
      accounts = await provider.connect(fetch, values);
    } catch (err) {
      const message = err instanceof OAuthFlowError ? err.message : `We could not reach ${provider.label} to finish connecting. Please try again in a moment.`;
      if (!(err instanceof OAuthFlowError)) log.warn('connect', `${args.platform} credentials connect failed`, err);
      await fail(session.id, message);
      // The client stays on the page and corrects what they typed; a new click mints a new session.
      throw new AppError('VALIDATION_FAILED', message, { field: 'values' });
    }
    const settled = await settleAccounts(link, session.id, args.platform, accounts);
    if (settled.kind === 'choosing') return { kind: 'choose', attempt: session.id };
    return connectedOutcome(session.id, args.platform, settled.connectionId, settled.account);
  }

  const authorizeUrl = oauth!.authorizeUrl({ app: app!, state, redirectUri: oauthCallbackUrl(args.platform), codeChallenge: pkce?.challenge ?? null });
  return { kind: 'redirect', authorizeUrl, attempt: session.id };
}

function connectedOutcome(attempt: string, platform: Platform, id: string, account: { accountName: string; displayName: string }): StartOutcome {
  return { kind: 'connected', attempt, connection: { id, platform, accountName: account.accountName, displayName: account.displayName } };
}

/** The values the page asked for, trimmed; a missing one is refused naming its field. */
function requiredValues(fields: readonly ConnectField[], given: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields) {
    const value = (given[field.name] ?? '').trim();
    if (!value && !field.optional) throw new AppError('VALIDATION_FAILED', `${field.label} is required`, { field: `values.${field.name}` });
    if (value) out[field.name] = value;
  }
  return out;
}

/** The app an OAuth attempt uses: the deployment's, or the one Herald registered on the client's server. */
async function oauthAppFor(platform: Platform, provider: OAuthProvider, values: Record<string, string>, fetch: Fetcher): Promise<OAuthApp> {
  if (!provider.instance) return oauthApps[platform]()!;
  const name = provider.instance.field.name;
  const instanceUrl = serverOrigin(values[name]!, name);
  const redirectUri = oauthCallbackUrl(platform);
  const known = await db.instanceApp.findUnique({ where: { platform_instanceUrl_redirectUri: { platform, instanceUrl, redirectUri } } });
  const opened = known ? openValue(known.appSealed) : null;
  if (opened) return JSON.parse(opened) as OAuthApp;
  let app: OAuthApp;
  try {
    app = await provider.instance.registerApp(fetch, instanceUrl, redirectUri);
  } catch (err) {
    if (!(err instanceof OAuthFlowError)) log.warn('connect', `${platform} app registration at ${instanceUrl} failed`, err);
    const message =
      err instanceof OAuthFlowError ? err.message : `We could not reach ${instanceUrl} to register Herald there. Check the address and try again.`;
    throw new AppError('VALIDATION_FAILED', message, { field: `values.${name}` });
  }
  await db.instanceApp.upsert({
    where: { platform_instanceUrl_redirectUri: { platform, instanceUrl, redirectUri } },
    create: { platform, instanceUrl, redirectUri, clientId: app.clientId, appSealed: sealValue(JSON.stringify(app)) },
    update: { clientId: app.clientId, appSealed: sealValue(JSON.stringify(app)) },
  });
  return app;
}

/** A server address as a person types it ("mastodon.social", "https://fosstodon.org/") → its https origin. */
export function serverOrigin(typed: string, field: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(typed) ? typed : `https://${typed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new AppError('VALIDATION_FAILED', `"${typed.slice(0, 100)}" is not a server address`, { field: `values.${field}` });
  }
  if (url.protocol !== 'https:' || url.username || url.password || !url.hostname.includes('.')) {
    throw new AppError('VALIDATION_FAILED', 'The server address must be a public https address, like mastodon.social', { field: `values.${field}` });
  }
  return url.origin;
}

/**
 * The accounts a grant reached: one is connected at once; several wait for the client's choice
 * (Pages, boards, locations, channels), sealed in the session.
 */
async function settleAccounts(
  link: LiveClientLink,
  sessionId: string,
  platform: Platform,
  accounts: GrantedAccount[],
): Promise<{ kind: 'choosing' } | { kind: 'connected'; connectionId: string; account: GrantedAccount }> {
  if (accounts.length === 0) {
    const message = `${oauthProviders[platform].label} did not offer any account to connect.`;
    await fail(sessionId, message);
    throw new AppError('VALIDATION_FAILED', message, { field: 'platform' });
  }
  if (oauthProviders[platform].choose && accounts.length > 1) {
    await db.connectSession.update({ where: { id: sessionId }, data: { status: 'choosing', choicesSealed: sealValue(JSON.stringify(accounts)) } });
    return { kind: 'choosing' };
  }
  const account = accounts[0]!;
  const saved = await saveConnectedAccount({ link, platform, provider: 'live', account });
  await db.connectSession.update({ where: { id: sessionId }, data: { status: 'completed', connectionId: saved.id, choicesSealed: null } });
  return { kind: 'connected', connectionId: saved.id, account };
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

  // A federated network's app was registered on the client's server when the attempt started.
  const registered = session.appSealed ? openValue(session.appSealed) : null;
  const appConfig: OAuthApp | null = registered ? (JSON.parse(registered) as OAuthApp) : oauthApps[args.platform]();
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
      callback: params,
    });
  } catch (err) {
    const message = err instanceof OAuthFlowError ? err.message : `We could not reach ${provider.label} to finish connecting. Please try again in a moment.`;
    if (!(err instanceof OAuthFlowError)) log.warn('connect', `${args.platform} code exchange failed`, err);
    await fail(session.id, message);
    return { location: attempt };
  }

  try {
    await settleAccounts(link, session.id, args.platform, accounts);
  } catch (err) {
    if (!(err instanceof AppError)) throw err; // the session says why
  }
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

export interface ApprovalCheck {
  status: 'pending' | 'completed' | 'failed' | 'choosing';
  attempt: string;
  message: string | null;
  connection: { id: string; platform: Platform; accountName: string; displayName: string } | null;
}

/**
 * The page's check of an approval attempt (the browser's session names it): asks the network
 * whether the client approved; once they have, the account is connected, by this check only (the
 * session moves on before the account is saved, so two checks at once connect it once).
 */
export async function checkApproval(args: { token: string; cookie: { token: string; session: string } | null; fetch?: Fetcher }): Promise<ApprovalCheck> {
  const link = await linkForSession(args.token);
  if (!args.cookie || args.cookie.token !== args.token) throw sessionInvalid('No connect session in this browser');
  const session = await db.connectSession.findUnique({ where: { tokenHash: hashLinkToken(args.cookie.session) } });
  if (!session || session.linkId !== link.id || !session.platform || !isPlatform(session.platform)) throw sessionInvalid('Unknown connect session');
  const platform = session.platform;
  const provider = oauthProviders[platform];
  const view = async (): Promise<ApprovalCheck> => {
    const now = await db.connectSession.findUniqueOrThrow({ where: { id: session.id } });
    const connection = now.connectionId
      ? await db.connection.findFirst({ where: { id: now.connectionId }, select: { id: true, accountName: true, displayName: true } })
      : null;
    const status = now.status === 'completed' || now.status === 'failed' || now.status === 'choosing' ? now.status : 'pending';
    return { status, attempt: now.id, message: now.error, connection: connection ? { ...connection, platform } : null };
  };
  if (session.status !== 'approving' || !isApprovalProvider(provider)) return view();
  if (session.expiresAt <= new Date()) {
    await db.connectSession.updateMany({
      where: { id: session.id, status: 'approving' },
      data: {
        status: 'failed',
        error: `The request was not approved within the 15-minute connect session, so nothing was connected. Start again to send a new one.`,
        appSealed: null,
      },
    });
    return view();
  }
  const pending = session.appSealed ? openValue(session.appSealed) : null;
  if (!pending) {
    await fail(session.id, `${provider.label} is no longer available on this page.`);
    return view();
  }
  let checked: Awaited<ReturnType<typeof provider.check>>;
  try {
    checked = await provider.check(args.fetch ?? defaultFetch(), pending);
  } catch (err) {
    if (!(err instanceof OAuthFlowError)) {
      // Not an answer: the next check asks again.
      log.warn('connect', `${platform} approval check failed`, err);
      return { status: 'pending', attempt: session.id, message: `We could not reach ${provider.label} just now; we will keep checking.`, connection: null };
    }
    await db.connectSession.updateMany({ where: { id: session.id, status: 'approving' }, data: { status: 'failed', error: err.message, appSealed: null } });
    return view();
  }
  if (checked.status === 'pending') return { status: 'pending', attempt: session.id, message: null, connection: null };
  const claimed = await db.connectSession.updateMany({ where: { id: session.id, status: 'approving' }, data: { status: 'connecting', appSealed: null } });
  if (claimed.count === 1) {
    try {
      await settleAccounts(link, session.id, platform, checked.accounts);
    } catch (err) {
      if (!(err instanceof AppError)) throw err; // the session says why
    }
  }
  return view();
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
