// The public routes as tests call them, each with the procedure behind it, so an API test's
// response body is typed from that procedure's zod output schema instead of `any`. A test
// (api-routes.test.ts) holds this table equal to the facade's route table: a new route
// fails it until it is listed here.
import type { inferRouterOutputs } from '@trpc/server';
import type { ErrorCode } from '@/server/errors/catalogue';
import type { AppRouter } from '@/server/root';

export const API_ROUTES = {
  'GET /workspaces': 'workspaces.list',
  'POST /workspaces': 'workspaces.create',
  'GET /workspaces/{id}': 'workspaces.get',
  'DELETE /workspaces/{id}': 'workspaces.detach',
  'POST /workspaces/{id}/api-keys': 'workspaces.mintKey',
  'POST /workspaces/{id}/connect-url': 'workspaces.connectUrl',
  'POST /workspaces/{id}/review-url': 'workspaces.reviewUrl',
  'POST /workspaces/{id}/report-url': 'workspaces.reportUrl',
  'GET /workspaces/{id}/links': 'workspaces.links',
  'DELETE /workspaces/{id}/links/{linkId}': 'workspaces.revokeLink',
  'GET /api-keys': 'apiKeys.list',
  'POST /api-keys': 'apiKeys.create',
  'DELETE /api-keys/{id}': 'apiKeys.revoke',
  'POST /posts': 'posts.create',
  'GET /posts': 'posts.list',
  'POST /posts/import/preview': 'posts.importPreview',
  'POST /posts/import': 'posts.import',
  'GET /posts/export.csv': 'posts.exportCsv',
  'GET /posts/{id}': 'posts.get',
  'PATCH /posts/{id}': 'posts.update',
  'DELETE /posts/{id}': 'posts.cancel',
  'POST /posts/{id}/publish': 'posts.publish',
  'POST /posts/{id}/retry': 'posts.retry',
  'GET /posts/{id}/targets': 'posts.targets',
  'POST /posts/{id}/targets/{targetId}/published': 'posts.markPublished',
  'POST /posts/{id}/targets/{targetId}/resend': 'posts.resend',
  'GET /posts/{id}/metrics': 'postMetrics.get',
  'POST /posts/{id}/metrics/collect': 'postMetrics.collect',
  'GET /analytics/top-posts': 'postMetrics.top',
  'GET /analytics/connections/{id}/rollup': 'postMetrics.rollup',
  'GET /analytics/posts/export.csv': 'postMetrics.exportCsv',
  'GET /inbox': 'inbox.list',
  'POST /inbox/check': 'inbox.check',
  'GET /inbox/response-times': 'inbox.responseTimes',
  'GET /inbox/{id}': 'inbox.get',
  'PATCH /inbox/{id}': 'inbox.update',
  'POST /inbox/{id}/reply': 'inbox.reply',
  'PUT /inbox/{id}/reply': 'inbox.editReply',
  'DELETE /inbox/{id}/reply': 'inbox.deleteReply',
  'POST /inbox/{id}/drafts': 'inbox.draftReply',
  'DELETE /inbox/{id}/drafts/{draftId}': 'inbox.discardDraft',
  'POST /inbox/{id}/hide': 'inbox.hide',
  'POST /inbox/{id}/delete': 'inbox.delete',
  'POST /inbox/{id}/like': 'inbox.like',
  'GET /queue': 'queue.get',
  'PUT /queue/slots': 'queue.setSlots',
  'POST /queue/shuffle': 'queue.shuffle',
  'POST /queue/pause': 'queue.pause',
  'POST /queue/resume': 'queue.resume',
  'GET /settings': 'settings.get',
  'PATCH /settings': 'settings.update',
  'GET /media': 'media.list',
  'POST /media/upload-url': 'media.uploadUrl',
  'POST /media/{id}/complete': 'media.complete',
  'DELETE /media/{id}': 'media.delete',
  'GET /connections': 'connections.list',
  'GET /webhooks': 'webhooks.list',
  'POST /webhooks': 'webhooks.create',
  'GET /webhooks/{id}': 'webhooks.get',
  'PATCH /webhooks/{id}': 'webhooks.update',
  'DELETE /webhooks/{id}': 'webhooks.delete',
  'POST /webhooks/{id}/rotate-secret': 'webhooks.rotateSecret',
  'GET /webhooks/{id}/deliveries': 'webhooks.deliveries',
  'POST /webhooks/{id}/deliveries/{deliveryId}/redeliver': 'webhooks.redeliver',
  'POST /webhooks/{id}/test': 'webhooks.test',
  'POST /webhooks/{id}/recover': 'webhooks.recover',
  'GET /feeds': 'feeds.list',
  'POST /feeds': 'feeds.create',
  'GET /feeds/{id}': 'feeds.get',
  'PATCH /feeds/{id}': 'feeds.update',
  'DELETE /feeds/{id}': 'feeds.delete',
  'POST /feeds/{id}/check': 'feeds.check',
  'GET /evergreen': 'evergreen.list',
  'PUT /posts/{id}/evergreen': 'evergreen.set',
  'GET /posts/{id}/evergreen': 'evergreen.get',
  'DELETE /posts/{id}/evergreen': 'evergreen.stop',
  'GET /posts/{id}/links': 'links.forPost',
  'GET /links/{id}/clicks': 'links.clicks',
  'GET /proposals': 'proposals.list',
  'GET /proposals/{id}': 'proposals.get',
  'GET /workflows': 'workflows.list',
  'POST /workflows/{id}/runs': 'workflows.run',
  'GET /workflows/runs': 'workflows.runs',
  'GET /workflows/runs/{runId}': 'workflows.getRun',
  'GET /instagram/profiles': 'connections.instagramProfiles',
  'GET /sources': 'analytics.sources',
  'GET /ad-accounts': 'analytics.adAccounts',
  'GET /metrics/summary': 'analytics.metricsSummary',
  'GET /metrics/daily': 'analytics.metricsDaily',
  'GET /crawl/sites': 'crawl.sites',
  'GET /crawl/pages': 'crawl.pages',
  'GET /crawl/pages/{pageId}/timeline': 'crawl.timeline',
  'GET /crawl/changes': 'crawl.changes',
  'GET /crawl/changes/{changeId}': 'crawl.change',
  'GET /best-times': 'bestTimes.get',
} as const;

type Outputs = inferRouterOutputs<AppRouter>;
type OutputOf<Procedure extends string> = Procedure extends `${infer R extends keyof Outputs & string}.${infer P}`
  ? P extends keyof Outputs[R]
    ? Outputs[R][P]
    : never
  : never;

/**
 * Every error shape the API answers, overlaid on the success body: a test reads
 * `body.error.code` or `body.message` after checking the status, and `body.data` otherwise.
 */
export interface ErrorBodies {
  error: { code: ErrorCode; message: string; field?: string };
  statusCode: number;
  message: string | string[];
}

type Segments<P extends string> = P extends `/${infer Rest}` ? Segments<Rest> : P extends `${infer Head}/${infer Tail}` ? [Head, ...Segments<Tail>] : [P];
type WithoutQuery<P extends string> = P extends `${infer Path}?${string}` ? Path : P;

/** A path segment fits a pattern segment: `{param}` takes any one segment, a literal only itself. */
type SegmentsFit<Path extends string[], Pattern extends string[]> = Path extends [infer S extends string, ...infer PathRest extends string[]]
  ? Pattern extends [infer T extends string, ...infer PatternRest extends string[]]
    ? T extends `{${string}}`
      ? SegmentsFit<PathRest, PatternRest>
      : S extends T
        ? SegmentsFit<PathRest, PatternRest>
        : false
    : false
  : Pattern extends []
    ? true
    : false;

type RouteKey = keyof typeof API_ROUTES;
type MatchingRoute<Method extends string, Path extends string> = {
  [K in RouteKey]: K extends `${Method} ${infer Pattern}` ? (SegmentsFit<Segments<WithoutQuery<Path>>, Segments<Pattern>> extends true ? K : never) : never;
}[RouteKey];

/**
 * The body a test gets for `method path`: the route's output (from its zod schema) with the
 * error shapes overlaid; a path no route matches gets the error shapes only.
 */
export type ResponseBodyOf<Method extends string, Path extends string> = [MatchingRoute<Method, Path>] extends [never]
  ? ErrorBodies
  : OutputOf<(typeof API_ROUTES)[MatchingRoute<Method, Path>]> extends infer Out
    ? [Out] extends [void | undefined]
      ? ErrorBodies
      : Out & ErrorBodies
    : never;
