// What the no-login pages (app/connect/[token], app/review/[token], app/report/[token]) load, with the same
// throttling and link rules as their JSON routes; a link that does not work becomes the
// matching page (revoked, expired, throttled) instead of an error.
import { readReportPage, type ReportPageData } from '@/server/client-report/client-report';
import { readReviewPage, type ReviewPageData } from '@/server/client-review/client-review';
import { parseConnectCookie, readAttempt, type AttemptView } from '@/server/connect/connect-flow';
import { readConnectPage } from '@/server/connect/connect-page';
import type { ConnectPageData } from '@/server/connect/connect.schemas';
import { AppError } from '@/server/errors/app-error';
import { throttleClientLink } from './client-link-handler';

export type LinkProblem = 'revoked' | 'expired' | 'throttled';

function problemOf(error: unknown): LinkProblem {
  if (error instanceof AppError) {
    if (error.code === 'CONNECT_TOKEN_EXPIRED') return 'expired';
    if (error.code === 'RATE_LIMITED') return 'throttled';
    if (error.code === 'CONNECT_TOKEN_INVALID') return 'revoked';
  }
  throw error;
}

export type ConnectPageLoad = { problem: LinkProblem } | { problem: null; data: ConnectPageData; attempt: AttemptView | null };

export async function loadConnectPage(args: {
  token: string;
  headers: Headers;
  cookie: string | undefined;
  attemptId: string | undefined;
}): Promise<ConnectPageLoad> {
  try {
    await throttleClientLink(args.headers, args.token);
    const data = await readConnectPage(args.token);
    const cookie = parseConnectCookie(args.cookie);
    const attempt = args.attemptId
      ? await readAttempt({ token: args.token, attemptId: args.attemptId, sessionToken: cookie && cookie.token === args.token ? cookie.session : null })
      : null;
    return { problem: null, data, attempt };
  } catch (error) {
    return { problem: problemOf(error) };
  }
}

export type ReviewPageLoad = { problem: LinkProblem } | { problem: null; data: ReviewPageData };

export async function loadReviewPage(args: { token: string; headers: Headers }): Promise<ReviewPageLoad> {
  try {
    await throttleClientLink(args.headers, args.token);
    return { problem: null, data: await readReviewPage(args.token) };
  } catch (error) {
    return { problem: problemOf(error) };
  }
}

export type ReportPageLoad = { problem: LinkProblem } | { problem: null; data: ReportPageData };

export async function loadReportPage(args: { token: string; headers: Headers }): Promise<ReportPageLoad> {
  try {
    await throttleClientLink(args.headers, args.token);
    return { problem: null, data: await readReportPage(args.token) };
  } catch (error) {
    return { problem: problemOf(error) };
  }
}
