// /sources, /ad-accounts, /metrics/summary, /metrics/daily (scope analytics:read).
import { z } from 'zod';
import { apiProcedure, router } from '@/server/trpc/init';
import type { HeraldMeta } from '@/server/trpc/meta';
import { adAccountsAnswer } from './ad-accounts';
import { ZAdAccount, ZDailyQuery, ZDailyResponse, ZProvenance, ZSource, ZSummaryQuery, ZSummaryResponse } from './analytics.schemas';
import { metricsDaily, metricsSummary } from './metrics';
import { sourcesAnswer } from './sources';
import { addAdAccount, removeAdAccount, syncAdAccountNow } from './manage-ad-accounts';
import { ZAdSource } from './analytics.schemas';
import { ZIdParam } from '@/server/shared/schemas';
import { writeEnvelope, ZText } from '@/server/shared/schemas';

const base = { scope: 'analytics:read', inputErrors: 'field' } as const satisfies Partial<HeraldMeta>;
const tags = ['Analytics'];

export const analyticsRouter = router({
  sources: apiProcedure
    .meta({
      ...base,
      openapi: {
        method: 'GET',
        path: '/sources',
        description:
          'Lists the data sources of this deployment (ad platforms and the crawl) and their provenance rules, so a client knows where each number comes from and how fresh it can be.',
        successDescription: 'The sources and their rules.',
        tags,
        protect: true,
        summary: 'Data sources of this deployment and their provenance rules',
      },
    })
    .input(z.strictObject({}).optional())
    .output(z.object({ data: z.array(ZSource).describe('Every source this deployment knows'), provenance: ZProvenance }))
    .query(() => sourcesAnswer()),

  adAccounts: apiProcedure
    .meta({
      ...base,
      openapi: {
        method: 'GET',
        path: '/ad-accounts',
        description:
          'Lists the ad accounts the workspace connected, with each account’s sync state: when it was last read and whether that worked. The ids are the accountId of the metrics routes.',
        successDescription: 'The ad accounts.',
        tags,
        protect: true,
        summary: 'Ad accounts of the workspace with per-account sync state',
      },
    })
    .input(z.strictObject({}).optional())
    .output(z.object({ data: z.array(ZAdAccount).describe('The workspace’s ad accounts, oldest first'), provenance: ZProvenance }))
    .query(({ ctx }) => adAccountsAnswer(ctx.actor.workspaceId)),

  metricsSummary: apiProcedure
    .meta({
      ...base,
      errors: ['VALIDATION_FAILED', 'AD_ACCOUNT_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/metrics/summary',
        description:
          'Totals of one ad account over an inclusive window of days in the workspace’s time zone. A counter without any reading in the window is null, never 0; provenance says where the numbers come from.',
        successDescription: 'The totals and their provenance.',
        tags,
        protect: true,
        summary: 'Totals of one ad account over an inclusive window; a counter without any reading is null, never 0',
      },
    })
    .input(ZSummaryQuery)
    .output(ZSummaryResponse)
    .query(({ ctx, input }) => metricsSummary(ctx.actor.workspaceId, input)),

  metricsDaily: apiProcedure
    .meta({
      ...base,
      errors: ['VALIDATION_FAILED', 'AD_ACCOUNT_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/metrics/daily',
        description:
          'One row per day of a window for one ad account, newest first. Days without a reading are included with null counters, so a gap is visible rather than hidden.',
        successDescription: 'The days, newest first, with provenance.',
        tags,
        protect: true,
        summary: 'One row per day of the window, newest first, days without a reading included with null counters',
      },
    })
    .input(ZDailyQuery)
    .output(ZDailyResponse)
    .query(({ ctx, input }) => metricsDaily(ctx.actor.workspaceId, input)),

  // ── Staff only (the app) ──
  addAdAccount: apiProcedure
    .meta({ scope: 'analytics:read', errors: ['FORBIDDEN', 'VALIDATION_FAILED'] })
    .input(
      z.strictObject({
        source: ZAdSource,
        externalId: ZText.trim().min(1).max(64),
        name: ZText.trim().min(1).max(80),
        currency: ZText.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD'),
        accessToken: ZText.min(1).max(4096).optional(),
        loginCustomerId: ZText.trim().min(1).max(32).optional(),
      }),
    )
    .output(writeEnvelope(ZAdAccount))
    .mutation(async ({ ctx, input }) => ({ data: await addAdAccount(ctx.actor, input), warnings: [] })),

  removeAdAccount: apiProcedure
    .meta({ scope: 'analytics:read', errors: ['FORBIDDEN', 'AD_ACCOUNT_NOT_FOUND'] })
    .input(ZIdParam)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await removeAdAccount(ctx.actor, input.id);
    }),

  syncAdAccountNow: apiProcedure
    .meta({ scope: 'analytics:read', errors: ['FORBIDDEN', 'AD_ACCOUNT_NOT_FOUND'] })
    .input(ZIdParam)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await syncAdAccountNow(ctx.actor, input.id);
    }),
});
