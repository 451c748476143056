// The composition root of background work: each job of the catalogue bound to the service
// that does it. Only the runners' start-up (server/runtime/background.ts) and the Inngest
// functions (inngest/functions.ts) import this file, so the jobs port never depends on the
// domains that enqueue through it.
import { purgeDeletedAgencies } from '@/server/agencies/leave';
import { enqueueAdSyncs, syncAdAccount } from '@/server/analytics/sync';
import { collectConnectionMetrics, sweepDueMetrics } from '@/server/analytics/post-metrics/collect';
import { collectConnectionComments, sweepDueComments } from '@/server/inbox/collect-comments';
import { collectConversations, sweepDueConversations } from '@/server/inbox/collect-conversations';
import { pruneWebhookDeliveries } from '@/server/network-webhooks/receive-webhook';
import { runCrawl } from '@/server/crawl/crawl-run';
import { checkDueFeeds } from '@/server/feeds/feeds';
import { requeueDueEvergreen } from '@/server/evergreen/evergreen';
import { runOutboxDrain } from '@/server/events/drain-outbox';
import { purgeExpiredIdempotencyRecords } from '@/server/idempotency/idempotency';
import { jobCatalogue } from '@/server/jobs/catalogue';
import { bindHandlers, type JobHandlers } from '@/server/jobs/definition';
import { catchUpScheduledPosts, runScheduledDelivery } from '@/server/posts/delivery/scheduled-delivery';
import { executeProposal } from '@/server/mcp/execute-proposal';
import { notifyMcpSessions } from '@/server/mcp/session-events';
import { notifyStaff } from '@/server/notifications/notifications';
import { sweepProposals } from '@/server/proposals/proposals';
import { executeRun, sweepRuns } from '@/server/workflows/workflows';
import { attemptDeliveries } from '@/server/webhooks/attempt';
import { fanOutToWebhooks } from '@/server/webhooks/deliveries';
import { pruneDeliveries, sweepDeliveries } from '@/server/webhooks/sweep';

/** Who receives each drained domain event, in this order, inside the drain's transaction. */
export const outboxConsumers = [fanOutToWebhooks, notifyMcpSessions, notifyStaff];

const handlers: JobHandlers<typeof jobCatalogue> = {
  'outbox.drain': async () => {
    await runOutboxDrain(outboxConsumers);
  },
  'posts.deliver': async ({ postId, scheduleVersion }) => {
    await runScheduledDelivery(postId, scheduleVersion);
  },
  'posts.catch-up': async () => {
    await catchUpScheduledPosts();
  },
  'webhooks.deliver': async ({ deliveryIds }) => {
    await attemptDeliveries(deliveryIds);
  },
  'webhooks.sweep': async () => {
    await sweepDeliveries();
  },
  'webhooks.prune': async () => {
    await pruneDeliveries();
  },
  'proposals.execute': async ({ actionId }) => {
    await executeProposal(actionId);
  },
  'proposals.sweep': async () => {
    await sweepProposals();
  },
  'workflows.run': async ({ runId }) => {
    await executeRun(runId);
  },
  'workflows.sweep': async () => {
    await sweepRuns();
  },
  'analytics.sync-ads': async () => {
    await enqueueAdSyncs();
  },
  'analytics.sync-account': async ({ accountId }) => {
    await syncAdAccount(accountId);
  },
  'metrics.sweep': async () => {
    await sweepDueMetrics();
  },
  'metrics.collect': async ({ connectionId, targetIds }) => {
    await collectConnectionMetrics(connectionId, { targetIds });
  },
  'inbox.sweep': async () => {
    await sweepDueComments();
    await sweepDueConversations();
    await pruneWebhookDeliveries();
  },
  'inbox.conversations': async ({ connectionId, kinds }) => {
    await collectConversations(connectionId, { kinds });
  },
  'inbox.collect': async ({ connectionId, targetIds }) => {
    await collectConnectionComments(connectionId, { targetIds });
  },
  'crawl.run': async () => {
    await runCrawl();
  },
  'feeds.check': async () => {
    await checkDueFeeds();
  },
  'evergreen.requeue': async () => {
    await requeueDueEvergreen();
  },
  'crawl.site': async ({ siteId }) => {
    await runCrawl({ siteIds: [siteId] });
  },
  'agencies.purge': async () => {
    await purgeDeletedAgencies();
  },
  'idempotency.purge': async () => {
    await purgeExpiredIdempotencyRecords();
  },
};

/** The catalogue with its handlers, as the runners take them. */
export const runnableJobs = bindHandlers(jobCatalogue, handlers);
