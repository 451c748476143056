// Post results (scope analytics:read): per-post metrics and on-demand collection, top posts,
// per-connection rollups and the CSV export.
import { apiProcedure, router } from '@/server/trpc/init';
import type { HeraldMeta } from '@/server/trpc/meta';
import { idParam, writeEnvelope } from '@/server/shared/schemas';
import {
  ZCollectResult,
  ZCsvExport,
  ZExportQuery,
  ZPostMetricsResponse,
  ZRollupQuery,
  ZRollupResponse,
  ZTopPostsQuery,
  ZTopPostsResponse,
} from './post-metrics.schemas';
import { collectPostMetricsNow, connectionRollup, exportPostsCsv, postMetrics, topPosts } from './read-metrics';

const base = { scope: 'analytics:read' } as const satisfies Partial<HeraldMeta>;
const tags = ['Analytics'];
const ZPostId = idParam('post', 'from posts_list');

export const postMetricsRouter = router({
  get: apiProcedure
    .meta({
      ...base,
      errors: ['POST_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/posts/{id}/metrics',
        description:
          'A published post’s results per account: the latest reading (impressions, reactions, comments, shares, clicks where the platform offers them) and the reading history. A counter the platform does not report is null.',
        successDescription: 'The post’s results per account.',
        tags,
        protect: true,
        summary: 'A post’s results per account: latest reading and history',
      },
    })
    .input(ZPostId)
    .output(ZPostMetricsResponse)
    .query(({ ctx, input }) => postMetrics(ctx.actor.workspaceId, input.id)),

  collect: apiProcedure
    .meta({
      ...base,
      errors: ['POST_NOT_FOUND'],
      openapi: {
        method: 'POST',
        path: '/posts/{id}/metrics/collect',
        description:
          'Queues a reading of a published post’s results now, beyond the scheduled readings. The readings arrive in the background: read them with GET /posts/{id}/metrics.',
        successDescription: 'Queued: which accounts will be read.',
        tags,
        protect: true,
        summary: 'Queue a reading of a post’s results now',
      },
    })
    .input(ZPostId)
    .output(writeEnvelope(ZCollectResult))
    .mutation(async ({ ctx, input }) => ({ data: await collectPostMetricsNow(ctx.actor.workspaceId, input.id), warnings: [] })),

  top: apiProcedure
    .meta({
      ...base,
      inputErrors: 'field',
      errors: ['VALIDATION_FAILED'],
      openapi: {
        method: 'GET',
        path: '/analytics/top-posts',
        description: 'The workspace’s best posts of a window, ranked by one metric or by engagement (the formula is in provenance), to see what worked.',
        successDescription: 'The ranked posts with provenance.',
        tags,
        protect: true,
        summary: 'Top posts of a window by a metric or engagement',
      },
    })
    .input(ZTopPostsQuery)
    .output(ZTopPostsResponse)
    .query(({ ctx, input }) => topPosts(ctx.actor.workspaceId, input)),

  rollup: apiProcedure
    .meta({
      ...base,
      inputErrors: 'field',
      errors: ['VALIDATION_FAILED', 'CONNECTION_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/analytics/connections/{id}/rollup',
        description: 'One connected account’s post results per day of a window: the sum of its posts’ latest readings by publication day.',
        successDescription: 'The days with their totals, and provenance.',
        tags,
        protect: true,
        summary: 'One account’s post results per day of a window',
      },
    })
    .input(ZRollupQuery)
    .output(ZRollupResponse)
    .query(({ ctx, input }) => connectionRollup(ctx.actor.workspaceId, input)),

  exportCsv: apiProcedure
    .meta({
      ...base,
      inputErrors: 'field',
      errors: ['VALIDATION_FAILED'],
      produces: 'text/csv',
      openapi: {
        method: 'GET',
        path: '/analytics/posts/export.csv',
        description: 'The posts of a window with their results, as a CSV file for a spreadsheet or a report.',
        tags,
        protect: true,
        summary: 'Posts of a window with their results, as CSV',
      },
    })
    .input(ZExportQuery)
    .output(ZCsvExport)
    .query(({ ctx, input }) => exportPostsCsv(ctx.actor.workspaceId, input)),
});
