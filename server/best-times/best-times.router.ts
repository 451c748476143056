// GET /best-times (scope analytics:read).
import { apiProcedure, router } from '@/server/trpc/init';
import { bestTimes } from './best-times';
import { ZBestTimesQuery, ZBestTimesResponse } from './best-times.schemas';

export const bestTimesRouter = router({
  get: apiProcedure
    .meta({
      scope: 'analytics:read',
      inputErrors: 'field',
      errors: ['VALIDATION_FAILED'],
      openapi: {
        method: 'GET',
        path: '/best-times',
        description:
          'Suggests upcoming times to schedule, per platform, derived from the workspace’s own publish history and its results; without enough history, labelled defaults. Times are in the workspace’s time zone.',
        successDescription: 'The suggested slots with how they were derived.',
        tags: ['Analytics'],
        protect: true,
        summary: 'Suggested upcoming times to schedule, from the workspace’s own publish history (or labelled defaults)',
      },
    })
    .input(ZBestTimesQuery.optional())
    .output(ZBestTimesResponse)
    .query(({ ctx, input }) => bestTimes(ctx.actor.workspaceId, input?.platform)),
});
