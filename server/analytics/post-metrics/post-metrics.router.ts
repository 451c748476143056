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
        tags,
        protect: true,
        summary: 'A post’s results per account: the latest reading and every reading, with null reasons and the networks’ metric names',
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
        tags,
        protect: true,
        summary: 'Queue a reading now of every published account of a post (answered at once; GET /posts/{id}/metrics shows it when done)',
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
        tags,
        protect: true,
        summary: 'Posts published in a window ranked by a metric or engagement (latest readings), optionally on one platform',
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
        tags,
        protect: true,
        summary: 'One account’s results per publishing day of a window and in total (sums of the posts’ latest readings; null when none has a value)',
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
        tags,
        protect: true,
        summary: 'Posts published in a window with their latest results, as CSV (REST answers text/csv; tools get the text in `csv`)',
      },
    })
    .input(ZExportQuery)
    .output(ZCsvExport)
    .query(({ ctx, input }) => exportPostsCsv(ctx.actor.workspaceId, input)),
});
