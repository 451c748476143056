// `npm run seed`: the demo data, idempotent, against the same database the app uses (the
// running app's embedded server is joined, not started twice). The last line of stdout is
// one JSON object describing what an integrator needs to try Herald.
import { prepareDatabase } from '@/server/runtime/prepare';
import { env } from '@/server/config/env';
import type { Platform } from '@/server/shared/platforms';

const OWNER_EMAIL = env.seedOwnerEmail();
const OWNER_PASSWORD = env.seedOwnerPassword();

const SANDBOX_ACCOUNTS = [
  { platform: 'instagram', externalId: 'sbx-ig-1', accountName: 'demoagency', displayName: 'Demo Agency (Instagram)', sandbox: 'ok' },
  { platform: 'facebook', externalId: 'sbx-fb-1', accountName: 'demoagency', displayName: 'Demo Agency (Facebook Page)', sandbox: 'ok' },
  { platform: 'linkedin', externalId: 'sbx-li-1', accountName: 'demo-agency', displayName: 'Demo Agency (LinkedIn)', sandbox: 'ok' },
  { platform: 'twitter', externalId: 'sbx-x-1', accountName: 'demoagency', displayName: 'Demo Agency (X)', sandbox: 'ok' },
  { platform: 'threads', externalId: 'sbx-th-1', accountName: 'demoagency', displayName: 'Demo Agency (Threads)', sandbox: 'ok' },
  { platform: 'tiktok', externalId: 'sbx-tt-1', accountName: 'demoagency', displayName: 'Demo Agency (TikTok)', sandbox: 'ok' },
  { platform: 'youtube', externalId: 'sbx-yt-1', accountName: '@demoagency', displayName: 'Demo Agency (YouTube)', sandbox: 'ok' },
  { platform: 'pinterest', externalId: 'sbx-pin-1', accountName: 'demoagency', displayName: 'Demo Agency · Ideas board (Pinterest)', sandbox: 'ok' },
  {
    platform: 'google_business',
    externalId: 'accounts/sbx/locations/1',
    accountName: 'Demo Agency, Main Street',
    displayName: 'Demo Agency (Google Business Profile)',
    sandbox: 'ok',
  },
  { platform: 'bluesky', externalId: 'did:plc:sbxdemoagency', accountName: '@demoagency.bsky.social', displayName: 'Demo Agency (Bluesky)', sandbox: 'ok' },
  { platform: 'mastodon', externalId: '1@mastodon.example', accountName: '@demoagency@mastodon.example', displayName: 'Demo Agency (Mastodon)', sandbox: 'ok' },
  { platform: 'reddit', externalId: 'sbx-rd-1', accountName: 'u/demoagency', displayName: 'Demo Agency (Reddit)', sandbox: 'ok' },
  { platform: 'telegram', externalId: '-1001000000001', accountName: '@demoagency_news', displayName: 'Demo Agency News (Telegram)', sandbox: 'ok' },
  { platform: 'discord', externalId: 'sbx-dc-1', accountName: '#announcements', displayName: 'Demo Agency · #announcements (Discord)', sandbox: 'ok' },
  { platform: 'slack', externalId: 'sbx-sl-1', accountName: '#client-updates', displayName: 'Demo Agency · #client-updates (Slack)', sandbox: 'ok' },
  { platform: 'devto', externalId: 'sbx-devto-1', accountName: '@demoagency', displayName: 'Demo Agency (Dev.to)', sandbox: 'ok' },
  { platform: 'ghost', externalId: 'demoagency.ghost.io#sbx', accountName: 'demoagency.ghost.io', displayName: 'Demo Agency Journal (Ghost)', sandbox: 'ok' },
  {
    platform: 'listmonk',
    externalId: 'news.demo-agency.example#list-3',
    accountName: 'news.demo-agency.example → Newsletter',
    displayName: 'Demo Agency Newsletter (Listmonk)',
    sandbox: 'ok',
  },
  {
    platform: 'lemmy',
    externalId: '2@lemmy.example!7',
    accountName: '@demoagency@lemmy.example → !coffee@lemmy.example',
    displayName: 'Demo Agency (Lemmy)',
    sandbox: 'ok',
  },
  {
    platform: 'nostr',
    externalId: '7e7e9c42a91bfef19fa929e5fda1b72e0ebc1a4c1141673e2794234d86addf4e',
    accountName: 'npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg',
    displayName: 'Demo Agency (Nostr)',
    sandbox: 'ok',
  },
  { platform: 'tumblr', externalId: 't:sbx-tumblr-1', accountName: 'demoagency', displayName: 'Demo Agency (Tumblr)', sandbox: 'ok' },
  { platform: 'vk', externalId: '-229000001', accountName: 'demoagency', displayName: 'Demo Agency (VK)', sandbox: 'ok' },
  { platform: 'twitch', externalId: 'sbx-twitch-1', accountName: 'demoagency', displayName: 'Demo Agency (Twitch)', sandbox: 'ok' },
  { platform: 'kick', externalId: 'sbx-kick-1', accountName: 'demoagency', displayName: 'Demo Agency (Kick)', sandbox: 'ok' },
  { platform: 'dribbble', externalId: 'sbx-dribbble-1', accountName: 'demoagency', displayName: 'Demo Agency (Dribbble)', sandbox: 'ok' },
  { platform: 'farcaster', externalId: '880001', accountName: '@demoagency', displayName: 'Demo Agency (Farcaster)', sandbox: 'ok' },
  {
    platform: 'instagram_login',
    externalId: 'sbx-igl-1',
    accountName: 'demoagency.studio',
    displayName: 'Demo Agency Studio (Instagram Login)',
    sandbox: 'ok',
  },
  {
    platform: 'hashnode',
    externalId: 'sbx-hashnode-1',
    accountName: 'demoagency.hashnode.dev',
    displayName: 'Demo Agency Engineering (Hashnode)',
    sandbox: 'ok',
  },
  { platform: 'medium', externalId: 'sbx-medium-1', accountName: '@demoagency', displayName: 'Demo Agency (Medium)', sandbox: 'ok' },
  {
    platform: 'wordpress',
    externalId: 'blog.demoagency.example#1',
    accountName: 'blog.demoagency.example',
    displayName: 'Demo Agency Blog (WordPress)',
    sandbox: 'ok',
  },
  {
    platform: 'wordpress_com',
    externalId: 'sbx-wpcom-1',
    accountName: 'news.demoagency.example',
    displayName: 'Demo Agency News (WordPress.com)',
    sandbox: 'ok',
  },
  {
    platform: 'linkedin',
    externalId: 'sbx-li-rejects',
    accountName: 'demo-agency-careers',
    displayName: 'Demo Agency Careers (LinkedIn, rejects posts)',
    sandbox: 'rejects_posts',
  },
  {
    platform: 'twitter',
    externalId: 'sbx-x-expired',
    accountName: 'demoagency_old',
    displayName: 'Demo Agency Archive (X, token expired)',
    sandbox: 'expired',
  },
] as const;

async function main(): Promise<void> {
  await prepareDatabase();
  const { db } = await import('@/server/db/client');
  const { hashPassword } = await import('@/server/auth/password');
  const { createApiKey } = await import('@/server/api-keys/mint-api-key');
  const { SCOPES } = await import('@/server/auth/scopes');

  // The demo owner's password is published: never add it to a Herald that serves real
  // agencies, unless asked in so many words.
  const realAgencies = await db.workspace.count({ where: { managedById: null, deletedAt: null, slug: { not: 'demo-agency' } } });
  if (realAgencies > 0 && !process.argv.includes('--with-real-agencies')) {
    console.error(
      `This database already serves ${realAgencies} agenc${realAgencies === 1 ? 'y' : 'ies'}: the demo (with its published password) is not added.\n` +
        'Run `npm run seed -- --with-real-agencies` to add it anyway.',
    );
    process.exit(1);
  }

  const workspace = await db.workspace.upsert({
    where: { slug: 'demo-agency' },
    update: {},
    create: { name: 'Demo Agency', slug: 'demo-agency' },
  });
  const passwordHash = await hashPassword(OWNER_PASSWORD);
  const owner = await db.user.upsert({
    where: { email: OWNER_EMAIL },
    update: { passwordHash },
    create: { email: OWNER_EMAIL, name: 'Demo Owner', passwordHash },
  });
  await db.membership.upsert({
    where: { userId_workspaceId: { userId: owner.id, workspaceId: workspace.id } },
    update: { role: 'owner' },
    create: { userId: owner.id, workspaceId: workspace.id, role: 'owner' },
  });

  const farFuture = new Date(Date.now() + 365 * 24 * 3_600_000);
  const connections = [];
  for (const a of SANDBOX_ACCOUNTS) {
    const expired = a.sandbox === 'expired';
    const values = {
      provider: 'sandbox',
      accountName: a.accountName,
      displayName: a.displayName,
      sandboxBehavior: a.sandbox,
      status: 'active',
      // Sandbox tokens: valid for a year, except the expired account's, which lapsed yesterday.
      tokenExpiresAt: expired ? new Date(Date.now() - 24 * 3_600_000) : farFuture,
    };
    const row = await db.connection.upsert({
      where: { workspaceId_platform_externalId: { workspaceId: workspace.id, platform: a.platform, externalId: a.externalId } },
      update: values,
      create: { workspaceId: workspace.id, platform: a.platform, externalId: a.externalId, ...values },
    });
    connections.push({ id: row.id, platform: row.platform, displayName: row.displayName, sandbox: a.sandbox });
  }

  const adAccounts = await seedAdAccounts(workspace.id);
  const crawl = await seedCrawl(workspace.id);
  await seedPublishHistory(workspace.id);
  const postMetrics = await seedPostMetrics(workspace.id);
  await seedFollowers(workspace.id);
  const client = await seedClientWithReport(workspace.id);
  const inbox = await seedInbox([workspace.id, client.workspaceId]);

  const key = await createApiKey({ workspaceId: workspace.id, name: `Seed key ${new Date().toISOString()}`, scopes: SCOPES });

  console.log(`Seeded workspace "${workspace.name}" with ${connections.length} sandbox connections; sign in as ${OWNER_EMAIL}.`);
  if (client.reportUrl) console.log(`Client "Northwind Coffee" has a report of the last 30 days: ${client.reportUrl}`);
  console.log(
    JSON.stringify({
      baseUrl: env.baseUrl(),
      workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name },
      apiKey: key.secret,
      staff: { email: OWNER_EMAIL, password: OWNER_PASSWORD },
      connections,
      adAccounts,
      crawl,
      postMetrics,
      client,
      inbox,
    }),
  );
}

/**
 * The inbox after seeding: the demo accounts' comments under their recent posts, read the way
 * the collection reads them (questions, praise, spam, a reply thread, an edited comment), and a
 * few saved replies. Read again on a second seed, nothing is duplicated.
 */
async function seedInbox(workspaceIds: string[]): Promise<{ items: number }> {
  const { db } = await import('@/server/db/client');
  const { collectConnectionComments, COMMENTS_MAX_AGE_DAYS } = await import('@/server/inbox/collect-comments');
  const { saveReply } = await import('@/server/inbox/saved-replies');
  // Every post the collection would read (the last 90 days), so its next sweep finds nothing new.
  const since = new Date(Date.now() - COMMENTS_MAX_AGE_DAYS * 24 * 3_600_000);
  const targets = await db.postTarget.findMany({
    where: {
      status: 'published',
      postedId: { not: null },
      publishedAt: { gte: since },
      post: { workspaceId: { in: workspaceIds } },
      connection: { provider: 'sandbox', status: 'active' },
    },
    select: { id: true, connectionId: true },
    orderBy: { publishedAt: 'desc' },
  });
  const byConnection = new Map<string, string[]>();
  for (const t of targets) byConnection.set(t.connectionId, [...(byConnection.get(t.connectionId) ?? []), t.id]);
  for (const [connectionId, targetIds] of byConnection) {
    for (let i = 0; i < targetIds.length; i += 100) await collectConnectionComments(connectionId, { targetIds: targetIds.slice(i, i + 100) });
  }
  // The team kept up until ten days ago: older comments are handled, the latest wait.
  const weekAgo = new Date(Date.now() - 10 * 24 * 3_600_000);
  await db.inboxItem.updateMany({
    where: { workspaceId: { in: workspaceIds }, networkCreatedAt: { lt: weekAgo }, status: 'open' },
    data: { status: 'done', seenAt: weekAgo },
  });
  for (const workspaceId of workspaceIds) {
    await saveReply(workspaceId, { title: 'Shipping', text: 'Thanks for asking! We ship to the US, Canada and most of Europe: details at checkout.' });
    await saveReply(workspaceId, { title: 'Opening hours', text: 'We are open 8am to 6pm every day, and 9am to 4pm on Sundays.' });
  }
  return { items: await db.inboxItem.count({ where: { workspaceId: { in: workspaceIds } } }) };
}

/** One sandbox ad account with 60 days of deterministic metrics, some days without a reading. */
async function seedAdAccounts(workspaceId: string): Promise<{ id: string; name: string }[]> {
  const { db } = await import('@/server/db/client');
  const { syncAdAccount, FIRST_SYNC_DAYS } = await import('@/server/analytics/sync');
  const { addDays, todayIn } = await import('@/server/shared/analytics-window');
  const values = { name: 'Demo Agency Ads (sandbox)', currency: 'USD' };
  const account = await db.adAccount.upsert({
    where: { workspaceId_source_externalId: { workspaceId, source: 'sandbox', externalId: 'sbx-ads-1' } },
    update: values,
    create: { workspaceId, source: 'sandbox', externalId: 'sbx-ads-1', ...values },
  });
  const ws = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
  const to = todayIn(ws.timeZone);
  await syncAdAccount(account.id, { from: addDays(to, -(FIRST_SYNC_DAYS - 1)), to });
  return [{ id: account.id, name: account.name }];
}

const demoPage = (title: string, description: string, h1: string, paragraphs: string[]) =>
  `<!doctype html><html><head><title>${title}</title><meta name="description" content="${description}"></head>` +
  `<body><nav><a href="/">Home</a></nav><main><article><h1>${h1}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</article></main></body></html>`;

/**
 * One crawl site with three pages and a history of visits recorded through the crawl's own
 * recording (extraction, change detection): the home page changed between two visits, the
 * pricing page never changed, the sale page had a visit that returned nothing. The site is a
 * reserved example domain, so these visits are demo data; a real crawl of it records DNS failures.
 */
async function seedCrawl(workspaceId: string): Promise<{ siteId: string; pageIds: string[] }> {
  const { db } = await import('@/server/db/client');
  const { recordVisit } = await import('@/server/crawl/record-visit');
  const origin = 'https://www.demo-agency.example';
  const site = await db.crawlSite.upsert({
    where: { workspaceId_origin: { workspaceId, origin } },
    update: {},
    create: { workspaceId, origin, name: 'Demo Agency website' },
  });
  const paths = ['/', '/pricing', '/spring-sale'];
  const pages: { id: string; workspaceId: string; siteId: string; url: string }[] = [];
  for (const path of paths) {
    const url = `${origin}${path}`;
    pages.push(await db.crawlPage.upsert({ where: { siteId_url: { siteId: site.id, url } }, update: {}, create: { workspaceId, siteId: site.id, url } }));
  }
  if ((await db.crawlVisit.count({ where: { workspaceId } })) > 0) return { siteId: site.id, pageIds: pages.map((p) => p.id) };

  const userAgent = 'Herald seed (demo data; no request was made)';
  const ok = (html: string) => ({ outcome: 'ok' as const, detail: null, statusCode: 200, contentType: 'text/html; charset=utf-8', bytes: html.length, html });
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
  const visit = async (page: (typeof pages)[number], h: number, result: Parameters<typeof recordVisit>[0]['result']) =>
    recordVisit({ page, result, userAgent, startedAt: hoursAgo(h), finishedAt: new Date(hoursAgo(h).getTime() + 420) });
  const [home, pricing, sale] = pages as [(typeof pages)[number], (typeof pages)[number], (typeof pages)[number]];

  const homeV1 = demoPage('Demo Agency', 'Social media for growing brands', 'We grow brands on social', ['Strategy, content and ads for teams of every size.']);
  const homeV2 = demoPage('Demo Agency | Social that sells', 'Social media and paid ads for growing brands', 'We grow brands on social', [
    'Strategy, content and paid ads for teams of every size.',
    'Now booking spring campaigns.',
  ]);
  await visit(home, 30, ok(homeV1));
  await visit(home, 18, ok(homeV1));
  await visit(home, 6, ok(homeV2));

  const pricingHtml = demoPage('Pricing | Demo Agency', 'Plans and prices', 'Pricing', [
    'Starter from 900 dollars a month.',
    'Growth from 2,400 dollars a month.',
  ]);
  await visit(pricing, 30, ok(pricingHtml));
  await visit(pricing, 18, ok(pricingHtml));
  await visit(pricing, 6, ok(pricingHtml));

  const saleHtml = demoPage('Spring sale | Demo Agency', 'Twenty percent off spring campaigns', 'Spring sale', [
    'Book before March 31 and save twenty percent.',
  ]);
  await visit(sale, 30, ok(saleHtml));
  await visit(sale, 18, {
    outcome: 'timeout',
    detail: 'www.demo-agency.example did not answer within 15000 ms.',
    statusCode: null,
    contentType: null,
    bytes: null,
    html: null,
  });
  await visit(sale, 6, ok(saleHtml));
  await db.crawlSite.update({
    where: { id: site.id },
    data: { lastCrawlStartedAt: hoursAgo(6), lastCrawlFinishedAt: new Date(hoursAgo(6).getTime() + 5_000) },
  });
  return { siteId: site.id, pageIds: pages.map((p) => p.id) };
}

/** Published posts over the last ten weeks, with engagement readings, so best times has history. */
async function seedPublishHistory(workspaceId: string): Promise<void> {
  const { db } = await import('@/server/db/client');
  const MARK = '[demo history] ';
  if ((await db.post.count({ where: { workspaceId, content: { startsWith: MARK } } })) > 0) return;
  const connections = await db.connection.findMany({
    where: { workspaceId, provider: 'sandbox', sandboxBehavior: 'ok', platform: { in: ['instagram', 'linkedin'] } },
  });
  // Deterministic: weekday-hours that did better get more engagement.
  const slots = [
    { dow: 2, hour: 10, engagement: 180 },
    { dow: 4, hour: 18, engagement: 240 },
    { dow: 1, hour: 8, engagement: 60 },
    { dow: 5, hour: 13, engagement: 110 },
  ];
  const now = new Date();
  const todayDow = now.getUTCDay() || 7;
  for (const connection of connections) {
    for (let week = 1; week <= 8; week++) {
      for (const [i, slot] of slots.entries()) {
        const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - todayDow + slot.dow - 7 * week, slot.hour));
        await db.post.create({
          data: {
            workspaceId,
            content: `${MARK}Week ${week}, post ${i + 1} on ${connection.platform}`,
            mediaUrls: [],
            platforms: [connection.platform],
            connectionIds: [connection.id],
            status: 'published',
            scheduledAt: at,
            publishedAt: at,
            targets: {
              create: {
                connectionId: connection.id,
                platform: connection.platform,
                status: 'published',
                postedId: `sbx-${connection.platform}-${week}-${i}`,
                attempts: 1,
                attemptStartedAt: at,
                publishedAt: at,
                engagement: slot.engagement + ((week * 7 + i * 3) % 25),
                engagementCollectedAt: new Date(at.getTime() + 24 * 3_600_000),
              },
            },
          },
        });
      }
    }
  }
}

/**
 * Readings for the sandbox accounts' published posts: every slot of the collection schedule
 * that has elapsed, with the sandbox's deterministic numbers at that moment, so a fresh seed
 * shows per-post results, top posts and best times from collected engagement. The metrics
 * sweep then collects the later slots as they come due.
 */
async function seedPostMetrics(workspaceId: string): Promise<{ readings: number }> {
  const { db } = await import('@/server/db/client');
  const { storeReadings } = await import('@/server/analytics/post-metrics/collect');
  const { sandboxPostMetrics } = await import('@/server/platforms/sandbox/sandbox-insights');
  const targets = await db.postTarget.findMany({
    where: { status: 'published', postedId: { not: null }, publishedAt: { not: null }, post: { workspaceId }, connection: { provider: 'sandbox' } },
    select: { id: true, connectionId: true, platform: true, postedId: true, publishedAt: true },
  });
  const now = Date.now();
  let readings = 0;
  for (const { slot, seconds } of env.postMetricsSchedule()) {
    const at = (t: (typeof targets)[number]) => new Date(t.publishedAt!.getTime() + seconds * 1000);
    for (const t of targets.filter((x) => at(x).getTime() <= now)) {
      const metrics = sandboxPostMetrics(t.platform as Platform, t.postedId!, t.publishedAt!, at(t));
      readings += await storeReadings(
        workspaceId,
        t.platform,
        'sandbox',
        [{ target: { targetId: t.id, connectionId: t.connectionId, slot }, metrics }],
        at(t),
        'seed',
      );
    }
  }
  return { readings };
}

/**
 * Sixty days of follower counts for each sandbox account (the sandbox's deterministic, slowly
 * growing audience), so a rollup shows a trend at once; the daily collection continues it.
 */
async function seedFollowers(workspaceId: string): Promise<void> {
  const { db } = await import('@/server/db/client');
  const { storeFollowers } = await import('@/server/analytics/post-metrics/collect');
  const { sandboxFollowers } = await import('@/server/platforms/sandbox/sandbox-insights');
  const connections = await db.connection.findMany({ where: { workspaceId, provider: 'sandbox', sandboxBehavior: 'ok' } });
  for (const c of connections) {
    for (let day = 60; day >= 1; day--) {
      const at = new Date(Date.now() - day * 86_400_000);
      await storeFollowers(c, 'sandbox', sandboxFollowers(c.platform as Platform, c.externalId, at), at);
    }
  }
}

/**
 * A managed client of the demo agency with its own accounts, eight weeks of published posts and
 * their results, and a report link for the last 30 days: what an agency sends at month's end.
 */
async function seedClientWithReport(agencyId: string): Promise<{ workspaceId: string; reportUrl: string | null }> {
  const { db } = await import('@/server/db/client');
  const { issueClientLink } = await import('@/server/client-links/issue-client-link');
  const { addDays } = await import('@/server/shared/analytics-window');
  const client = await db.workspace.upsert({
    where: { slug: 'demo-client-northwind' },
    update: {},
    create: { name: 'Northwind Coffee', slug: 'demo-client-northwind', managedById: agencyId },
  });
  if (client.managedById !== agencyId) return { workspaceId: client.id, reportUrl: null };
  for (const [platform, accountName] of [
    ['instagram', 'northwind.coffee'],
    ['linkedin', 'northwind-coffee'],
  ] as const) {
    await db.connection.upsert({
      where: { workspaceId_platform_externalId: { workspaceId: client.id, platform, externalId: `sbx-northwind-${platform}` } },
      update: {},
      create: {
        workspaceId: client.id,
        platform,
        externalId: `sbx-northwind-${platform}`,
        provider: 'sandbox',
        sandboxBehavior: 'ok',
        status: 'active',
        accountName,
        displayName: `Northwind Coffee (${platform === 'instagram' ? 'Instagram' : 'LinkedIn'})`,
        tokenExpiresAt: new Date(Date.now() + 365 * 24 * 3_600_000),
      },
    });
  }
  await seedPublishHistory(client.id);
  await seedPostMetrics(client.id);
  await seedFollowers(client.id);
  const to = new Date().toISOString().slice(0, 10);
  const link = await issueClientLink({
    agencyWorkspaceId: agencyId,
    workspaceId: client.id,
    kind: 'report',
    input: { expiresInDays: 30, rotate: true },
    report: { from: addDays(to, -29), to, title: 'Northwind Coffee: the last 30 days' },
  });
  return { workspaceId: client.id, reportUrl: link.url };
}

main()
  .then(async () => {
    const { stopEmbeddedIfOwned } = await import('@/server/db/url');
    await stopEmbeddedIfOwned();
    process.exit(0);
  })
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
