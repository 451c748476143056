// The app router: every procedure Herald exposes. REST (/public/v1 via trpc-to-openapi),
// the UI (/api/trpc) and the tool endpoint are views of this one router.
import { agenciesRouter } from './agencies/agencies.router';
import { securityRouter } from './auth/security.router';
import { analyticsRouter } from './analytics/analytics.router';
import { postMetricsRouter } from './analytics/post-metrics/post-metrics.router';
import { apiKeysRouter } from './api-keys/api-keys.router';
import { bestTimesRouter } from './best-times/best-times.router';
import { queueRouter } from './queue/queue.router';
import { crawlRouter } from './crawl/crawl.router';
import { appShellRouter } from './app/app.router';
import { notificationsRouter } from './notifications/notifications.router';
import { connectionsRouter } from './connections/connections.router';
import { networksRouter } from './connect/networks.router';
import { feedsRouter } from './feeds/feeds.router';
import { evergreenRouter } from './evergreen/evergreen.router';
import { linksRouter } from './links/links.router';
import { inboxRouter } from './inbox/inbox.router';
import { mediaRouter } from './media/media.router';
import { postsRouter } from './posts/posts.router';
import { proposalsRouter } from './proposals/proposals.router';
import { createCallerFactory, router } from './trpc/init';
import { webhooksRouter } from './webhooks/webhooks.router';
import { workflowsRouter } from './workflows/workflows.router';
import { workspacesRouter } from './workspaces/workspaces.router';
import { settingsRouter } from './workspaces/settings.router';

export const appRouter = router({
  workspaces: workspacesRouter,
  apiKeys: apiKeysRouter,
  connections: connectionsRouter,
  posts: postsRouter,
  media: mediaRouter,
  webhooks: webhooksRouter,
  proposals: proposalsRouter,
  workflows: workflowsRouter,
  notifications: notificationsRouter,
  app: appShellRouter,
  analytics: analyticsRouter,
  postMetrics: postMetricsRouter,
  crawl: crawlRouter,
  bestTimes: bestTimesRouter,
  queue: queueRouter,
  agencies: agenciesRouter,
  security: securityRouter,
  settings: settingsRouter,
  networks: networksRouter,
  inbox: inboxRouter,
  feeds: feedsRouter,
  evergreen: evergreenRouter,
  links: linksRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
