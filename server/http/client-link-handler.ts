// The no-login routes behind the hosted connect page and the client review page, outside the
// versioned prefix (contract: Hosted connect page). They are authorized by the link token in
// the path (and a connect session), answer the same envelopes and error catalogue as
// /public/v1, and are rate limited per link and per client address before anything else.
//
//   GET  /public/connect/{token}                   page data (contract)
//   POST /public/connect/{token}/session           a 15-minute connect session (contract)
//   POST /public/connect/{token}/authorize         spend the session on one channel (page)
//   POST /public/connect/{token}/choose            pick the Page / business account (page)
//   POST /public/connect/{token}/approval          has the client approved in the network's app yet? (page)
//   GET  /public/review/{token}                    posts awaiting approval (extension)
//   POST /public/review/{token}/posts/{id}/approve (extension)
//   POST /public/review/{token}/posts/{id}/reject  { comment } (extension)
//   GET  /public/report/{token}                    the client report's data (extension)
//   GET  /public/report/{token}/pdf                the same report as a PDF (extension)
//   GET  /connect/callback/{platform}              where platforms send the browser back
import type { z } from 'zod';
import { hashLinkToken } from '@/server/client-links/link-tokens';
import { readReportPage, readReportPdf } from '@/server/client-report/client-report';
import { approveByReviewLink, readReviewPage, rejectByReviewLink, ZApproveBody, ZRejectBody } from '@/server/client-review/client-review';
import { env } from '@/server/config/env';
import { isJsonContentType } from '@/server/shared/headers';
import {
  checkApproval,
  chooseAccount,
  completeOAuthCallback,
  CONNECT_COOKIE,
  mintConnectSession,
  parseConnectCookie,
  startChannelConnect,
} from '@/server/connect/connect-flow';
import { readConnectPage } from '@/server/connect/connect-page';
import { ZAuthorizeBody, ZCheckApprovalBody, ZChooseBody, ZMintSessionBody, CONNECT_SESSION_MS } from '@/server/connect/connect.schemas';
import { AppError } from '@/server/errors/app-error';
import { toErrorResponse } from '@/server/errors/http';
import type { Fetcher } from '@/server/platforms/http';
import { consumeClientLinkRequest } from '@/server/ratelimit/client-link-limiter';
import { MAX_BODY_BYTES } from '@/server/shared/http-limits';
import { log } from '@/server/observability/log';
import { clientAddress } from '@/server/shared/client-address';

const NO_STORE = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

export { clientAddress };

/** Rate limits a request to a client link: per link (a hash prefix, never the token) and per address. */
export async function throttleClientLink(headers: Headers, token: string): Promise<void> {
  await consumeClientLinkRequest({ tokenKey: hashLinkToken(token).slice(0, 32), address: clientAddress(headers) });
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

function errorResponse(err: unknown): Response {
  const r = toErrorResponse(err);
  if (r.code === 'INTERNAL_ERROR') log.error('client-link', 'unexpected error', err);
  return json(r.status, r.body, r.headers);
}

async function readBody<T extends z.ZodType>(req: Request, schema: T, optional = false): Promise<z.infer<T>> {
  const text = await req.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', 'request body too large');
  if (!text && optional) return schema.parse({});
  if (!isJsonContentType(req.headers.get('content-type'))) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'send the body as JSON with Content-Type: application/json');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError('BAD_REQUEST', 'body is not valid JSON', { messages: ['body is not valid JSON'] });
  }
  return schema.parse(parsed);
}

function cookieValue(req: Request, name: string): string | null {
  for (const part of (req.headers.get('cookie') ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

function connectCookie(value: string, maxAgeSeconds: number): string {
  const secure = env.connectBaseUrl().startsWith('https:') ? '; Secure' : '';
  // Lax: the platform's redirect back is a top-level GET navigation, which carries it.
  return `${CONNECT_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

export interface ClientLinkHandlerOptions {
  /** The outbound fetcher for code exchanges and credential checks (tests trust a local stand-in's certificate). */
  fetch?: Fetcher;
}

const TOKEN = '([A-Za-z0-9_-]{1,200})';
const ROUTES: { method: string; pattern: RegExp; run: (req: Request, m: string[], o: ClientLinkHandlerOptions) => Promise<Response> }[] = [
  {
    method: 'GET',
    pattern: new RegExp(`^/public/connect/${TOKEN}$`),
    run: async (_req, [token]) => json(200, { data: await readConnectPage(token!) }),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/public/connect/${TOKEN}/session$`),
    run: async (req, [token]) => {
      await readBody(req, ZMintSessionBody, true);
      return json(200, { data: await mintConnectSession(token!) });
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/public/connect/${TOKEN}/authorize$`),
    run: async (req, [token], o) => {
      const body = await readBody(req, ZAuthorizeBody);
      const outcome = await startChannelConnect({
        token: token!,
        session: body.session,
        platform: body.platform,
        values: body.values,
        demo: body.demo,
        fetch: o.fetch,
      });
      // The browser that goes on to the consent page, a choice of accounts or an approval in the network's app carries its session.
      const headers =
        outcome.kind === 'redirect' || outcome.kind === 'choose' || outcome.kind === 'approve'
          ? { 'Set-Cookie': connectCookie(`${token}.${body.session}`, CONNECT_SESSION_MS / 1000) }
          : undefined;
      return json(200, { data: outcome }, headers);
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/public/connect/${TOKEN}/choose$`),
    run: async (req, [token]) => {
      const body = await readBody(req, ZChooseBody);
      const cookie = parseConnectCookie(cookieValue(req, CONNECT_COOKIE));
      const result = await chooseAccount({ token: token!, cookie, accountId: body.accountId });
      return json(200, { data: result }, { 'Set-Cookie': connectCookie('', 0) });
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/public/connect/${TOKEN}/approval$`),
    run: async (req, [token], o) => {
      await readBody(req, ZCheckApprovalBody, true);
      const cookie = parseConnectCookie(cookieValue(req, CONNECT_COOKIE));
      const result = await checkApproval({ token: token!, cookie, fetch: o.fetch });
      // Once the attempt is over, the browser no longer needs its session.
      const over = result.status === 'completed' || result.status === 'failed';
      return json(200, { data: result }, over ? { 'Set-Cookie': connectCookie('', 0) } : {});
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/public/review/${TOKEN}$`),
    run: async (_req, [token]) => json(200, { data: await readReviewPage(token!) }),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/public/review/${TOKEN}/posts/([^/]{1,100})/approve$`),
    run: async (req, [token, postId]) => {
      await readBody(req, ZApproveBody, true);
      return json(200, { data: await approveByReviewLink(token!, postId!), warnings: [] });
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/public/review/${TOKEN}/posts/([^/]{1,100})/reject$`),
    run: async (req, [token, postId]) => {
      const body = await readBody(req, ZRejectBody);
      return json(200, { data: await rejectByReviewLink(token!, postId!, body.comment), warnings: [] });
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/public/report/${TOKEN}$`),
    run: async (_req, [token]) => json(200, { data: await readReportPage(token!) }),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/public/report/${TOKEN}/pdf$`),
    run: async (_req, [token]) => {
      const pdf = await readReportPdf(token!);
      return new Response(Buffer.from(pdf.bytes), {
        status: 200,
        headers: {
          ...NO_STORE,
          'Content-Type': 'application/pdf',
          'Content-Disposition': `attachment; filename="${pdf.filename}"`,
          'Content-Length': String(pdf.bytes.byteLength),
        },
      });
    },
  },
];

/** The JSON routes under /public/connect, /public/review and /public/report (and the report's PDF). */
export async function handleClientLinkApi(req: Request, options: ClientLinkHandlerOptions = {}): Promise<Response> {
  try {
    const { pathname } = new URL(req.url);
    for (const route of ROUTES) {
      const match = route.pattern.exec(pathname);
      if (!match) continue;
      await throttleClientLink(req.headers, match[1]!);
      if (req.method !== route.method) break;
      return await route.run(req, match.slice(1), options);
    }
    throw new AppError('ROUTE_NOT_FOUND', 'No route at this method and path');
  } catch (err) {
    return errorResponse(err);
  }
}

/** GET /connect/callback/{platform}: finishes the OAuth round trip and returns the browser to its page. */
export async function handleConnectCallback(req: Request, options: ClientLinkHandlerOptions = {}): Promise<Response> {
  const url = new URL(req.url);
  const platform = /^\/connect\/callback\/([a-z]{1,20})$/.exec(url.pathname)?.[1] ?? '';
  const cookie = parseConnectCookie(cookieValue(req, CONNECT_COOKIE));
  try {
    if (cookie) await throttleClientLink(req.headers, cookie.token);
    const outcome = await completeOAuthCallback({ platform, params: url.searchParams, cookie, fetch: options.fetch });
    if (outcome.location) return new Response(null, { status: 303, headers: { ...NO_STORE, Location: `${env.connectBaseUrl()}${outcome.location}` } });
    return new Response(callbackErrorPage(outcome.message ?? 'Something went wrong.'), {
      status: 400,
      headers: { ...NO_STORE, 'Content-Type': 'text/html; charset=utf-8' },
    });
  } catch (err) {
    const r = toErrorResponse(err);
    if (r.code === 'INTERNAL_ERROR') log.error('connect', 'unexpected error in the OAuth callback', err);
    const message =
      r.code === 'RATE_LIMITED' ? 'Too many attempts. Please wait a minute and try again.' : 'Something went wrong while connecting. Please try again.';
    return new Response(callbackErrorPage(message), { status: r.status, headers: { ...NO_STORE, ...r.headers, 'Content-Type': 'text/html; charset=utf-8' } });
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Only when the browser cannot be sent back to its page (it is not the one that started). */
function callbackErrorPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Connection not completed</title>
<style>body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f6f7f9;color:#1d2433}main{max-width:28rem;margin:1.5rem;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.12)}h1{font-size:1.25rem;margin:0 0 .75rem}</style>
</head><body><main><h1>Connection not completed</h1><p>${escapeHtml(message)}</p></main></body></html>`;
}
