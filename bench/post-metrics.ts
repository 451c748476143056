// Post results, two parts.
//
// 1. Collection keeps up: TARGETS published targets (default 10,000) over CONNECTIONS live
//    connections (default 40) of the networks whose readers batch several ids per request, all
//    due for the 1h slot (published 1 to 2 hours ago). Each reader is the production one (no
//    options): it finds its API through the *_BASE_URL variables (Bluesky through the account's
//    PDS in platformData) at a local HTTPS fake, reached through the guarded outbound client with
//    OUTBOUND_ALLOW_HOSTS=127.0.0.1 and the fake's certificate in NODE_EXTRA_CA_CERTS (so this
//    script re-runs itself once with them set). The fake answers each network's documented
//    shape (the readers' test fixtures) with deterministic numbers and counts the calls. The
//    real metrics.sweep job is queued on the local job runner (startLocalRunner with
//    runnableJobs, as the app runs it); it queues one metrics.collect per connection, and the
//    clock stops when every target has its 1h reading. Goal: 10,000 due in an hour, read within it.
// 2. The Posts view's query: GET /analytics/top-posts over HTTP (REST facade, key check, rate
//    limit) against two years of readings for ACCOUNTS accounts (default 20; POSTS_PER_DAY posts
//    a day each, default 3, one reading per elapsed slot of 1h/24h/7d/28d), plus the same again in
//    another workspace. Windows of 30, 90 and 366 days, sorted by engagement and by one metric
//    (impressions), RUNS sequential requests each (default 200): p50/p95/p99. Target: p95 < 50 ms.
// Prints numbers; asserts no time.
//   npx tsx bench/post-metrics.ts   (TARGETS=10000 CONNECTIONS=40 CONCURRENCY=8 ACCOUNTS=20 DAYS=730 POSTS_PER_DAY=3 RUNS=200 PART=1,2)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bounded, withBenchDatabase } from './bench-database';

const TARGETS = Number(process.env.TARGETS ?? 10_000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 40);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const ACCOUNTS = Number(process.env.ACCOUNTS ?? 20);
const DAYS = Number(process.env.DAYS ?? 730);
const POSTS_PER_DAY = Number(process.env.POSTS_PER_DAY ?? 3);
const RUNS = Number(process.env.RUNS ?? 200);
const PARTS = (process.env.PART ?? '1,2').split(',');
const EXPLAIN = process.env.EXPLAIN === '1';
/** SQL run after seeding, before measuring: to try an index without a migration. */
const TRY_SQL = process.env.TRY_SQL;

// NODE_EXTRA_CA_CERTS is read when Node starts: make the fake's certificate, then run again
// with it trusted (and the fake's key handed over by path).
if (!process.env.BENCH_FAKE_CERT) {
  const { createSelfSignedCert } = await import('@/server/testing/self-signed-cert');
  const tls = createSelfSignedCert('herald-bench-fake-networks', ['IP:127.0.0.1']);
  const child = spawn(process.execPath, ['--import', 'tsx', process.argv[1]!], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_FAKE_CERT: tls.certPath, NODE_EXTRA_CA_CERTS: tls.certPath, OUTBOUND_ALLOW_HOSTS: '127.0.0.1' },
  });
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
  tls.remove();
  process.exit(code);
}

process.env.RATE_LIMIT_PER_MINUTE = '100000000';
process.env.WEBHOOK_SECRET_KEY ??= 'bench-post-metrics-sealing-secret-0123456789abcdef';
process.env.DATABASE_POOL_SIZE ??= '24';

const NETWORKS = ['instagram', 'facebook', 'twitter', 'tiktok', 'youtube', 'bluesky', 'reddit'] as const;
type Network = (typeof NETWORKS)[number];

/** A deterministic count for one post and one metric. */
function count(id: string, metric: string, scale: number): number {
  let h = 2166136261;
  for (const ch of `${id}/${metric}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return ((h >>> 0) % 1000) * scale + scale;
}

/** The posted id each network gives, in the form its reader expects. */
function postedId(network: Network, n: number, connection: number): string {
  switch (network) {
    case 'instagram':
      return `1789${String(n).padStart(11, '0')}`;
    case 'facebook':
      return `10435564239${connection}_1221${String(n).padStart(11, '0')}`;
    case 'twitter':
      return `18670${String(n).padStart(14, '0')}`;
    case 'tiktok':
      return `73112${String(n).padStart(14, '0')}`;
    case 'youtube':
      return `yt${n.toString(36).padStart(9, '0')}`;
    case 'bluesky':
      return `at://did:plc:bench${connection}/app.bsky.feed.post/3lb${n.toString(36).padStart(10, '0')}`;
    case 'reddit':
      return `t3_${n.toString(36)}`;
  }
}

type Fake = Awaited<ReturnType<typeof import('@/server/platforms/testing/fake-platform-api').startFakePlatformApi>>;

/** The networks' documented answers (shapes of server/platforms/<network>/fixtures), per asked id. */
function answerLikeTheNetworks(api: Fake) {
  const graphInsight = (id: string, name: string, value: unknown) => ({
    name,
    period: 'lifetime',
    values: [{ value }],
    title: name,
    description: name,
    id: `${id}/insights/${name}/lifetime`,
  });
  const askedMetrics = (fields: string) => /insights\.metric\(([^)]*)\)/.exec(fields)?.[1]?.split(',') ?? [];
  // Instagram media insights (media-insights-batch.json).
  api.on('GET', '/instagram/v25.0/', (req) => {
    const metrics = askedMetrics(req.query.get('fields') ?? '');
    const ids = req.query.get('ids')!.split(',');
    return { json: Object.fromEntries(ids.map((id) => [id, { insights: { data: metrics.map((m) => graphInsight(id, m, count(id, m, 3))) }, id }])) };
  });
  // Facebook Page posts (post-insights-batch.json).
  api.on('GET', '/facebook/v25.0/', (req) => {
    const ids = req.query.get('ids')!.split(',');
    return {
      json: Object.fromEntries(
        ids.map((id) => [
          id,
          {
            shares: { count: count(id, 'shares', 1) },
            comments: { data: [], summary: { order: 'ranked', total_count: count(id, 'comments', 1), can_comment: true } },
            reactions: { data: [], summary: { total_count: count(id, 'reactions', 2), viewer_reaction: 'NONE' } },
            insights: {
              data: [
                graphInsight(id, 'post_media_view', count(id, 'impressions', 5)),
                graphInsight(id, 'post_total_media_view_unique', count(id, 'reach', 4)),
                graphInsight(id, 'post_clicks_by_type', { 'link clicks': count(id, 'link', 1), 'other clicks': count(id, 'other', 1) }),
              ],
            },
            id,
          },
        ]),
      ),
    };
  });
  // X posts lookup (tweets-metrics.json).
  api.on('GET', '/twitter/2/tweets', (req) => {
    const ids = req.query.get('ids')!.split(',');
    const nonPublic = (req.query.get('tweet.fields') ?? '').includes('non_public_metrics');
    return {
      json: {
        data: ids.map((id) => ({
          id,
          text: 'Bench post',
          edit_history_tweet_ids: [id],
          public_metrics: {
            retweet_count: count(id, 'rt', 1),
            reply_count: count(id, 'reply', 1),
            like_count: count(id, 'like', 2),
            quote_count: count(id, 'quote', 1),
            bookmark_count: count(id, 'bookmark', 1),
            impression_count: count(id, 'impressions', 5),
          },
          ...(nonPublic
            ? {
                non_public_metrics: {
                  impression_count: count(id, 'impressions', 5),
                  url_link_clicks: count(id, 'link', 1),
                  user_profile_clicks: count(id, 'profile', 1),
                },
              }
            : {}),
        })),
      },
    };
  });
  // TikTok video query (video-query.json).
  api.on('POST', '/tiktok/v2/video/query/', (req) => {
    const ids = (req.json() as { filters: { video_ids: string[] } }).filters.video_ids;
    return {
      json: {
        data: {
          videos: ids.map((id) => ({
            id,
            view_count: count(id, 'views', 10),
            like_count: count(id, 'like', 2),
            comment_count: count(id, 'comment', 1),
            share_count: count(id, 'share', 1),
          })),
          cursor: 0,
          has_more: false,
        },
        error: { code: 'ok', message: '', log_id: '20261127101010BENCH' },
      },
    };
  });
  // YouTube videos.list part=statistics (videos-statistics.json): counts as strings.
  api.on('GET', '/youtube/youtube/v3/videos', (req) => {
    const ids = req.query.get('id')!.split(',');
    return {
      json: {
        kind: 'youtube#videoListResponse',
        etag: 'bench',
        items: ids.map((id) => ({
          kind: 'youtube#video',
          etag: 'bench',
          id,
          statistics: {
            viewCount: String(count(id, 'views', 10)),
            likeCount: String(count(id, 'like', 2)),
            favoriteCount: '0',
            commentCount: String(count(id, 'comment', 1)),
          },
        })),
        pageInfo: { totalResults: ids.length, resultsPerPage: ids.length },
      },
    };
  });
  // Bluesky app.bsky.feed.getPosts (get-posts.json).
  api.on('GET', '/bluesky/xrpc/app.bsky.feed.getPosts', (req) => ({
    json: {
      posts: req.query.getAll('uris').map((uri) => ({
        uri,
        cid: 'bafyreibench',
        author: { did: uri.split('/')[2], handle: 'bench.bsky.social', displayName: 'Bench', labels: [], createdAt: '2024-11-02T10:00:00.000Z' },
        record: { $type: 'app.bsky.feed.post', createdAt: '2026-11-25T09:00:00.000Z', langs: ['en'], text: 'Bench post' },
        replyCount: count(uri, 'reply', 1),
        repostCount: count(uri, 'repost', 1),
        likeCount: count(uri, 'like', 2),
        quoteCount: count(uri, 'quote', 1),
        bookmarkCount: count(uri, 'bookmark', 1),
        indexedAt: '2026-11-25T09:00:01.204Z',
        labels: [],
      })),
    },
  }));
  // Reddit /api/info (info-posts.json).
  api.on('GET', '/reddit/api/info', (req) => {
    const names = req.query.get('id')!.split(',');
    return {
      json: {
        kind: 'Listing',
        data: {
          after: null,
          dist: names.length,
          modhash: null,
          geo_filter: '',
          children: names.map((name) => ({
            kind: 't3',
            data: {
              subreddit: 'bench',
              title: 'Bench post',
              name,
              id: name.slice(3),
              author: 'bench',
              ups: count(name, 'ups', 2),
              downs: 0,
              score: count(name, 'ups', 2),
              upvote_ratio: 0.9,
              num_comments: count(name, 'comments', 1),
              num_crossposts: count(name, 'crossposts', 1),
              view_count: null,
              removed_by_category: null,
              permalink: `/r/bench/comments/${name.slice(3)}/bench_post/`,
              created_utc: 1795772000.0,
            },
          })),
        },
      },
    };
  });
}

/** How many ids one recorded request asked for. */
function idsIn(network: Network, req: Fake['requests'][number]): number {
  switch (network) {
    case 'instagram':
    case 'facebook':
    case 'twitter':
      return req.query.get('ids')?.split(',').length ?? 0;
    case 'youtube':
    case 'reddit':
      return req.query.get('id')?.split(',').length ?? 0;
    case 'bluesky':
      return req.query.getAll('uris').length;
    case 'tiktok':
      return (req.json() as { filters: { video_ids: string[] } }).filters.video_ids.length;
  }
}

const quantiles = (samples: number[]) => {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(s.length * p))]!.toFixed(1);
  return `p50 ${q(0.5)} ms  p95 ${q(0.95)} ms  p99 ${q(0.99)} ms`;
};

async function collectionKeepsUp(url: string) {
  const { db } = await import('@/server/db/client');
  const { sealToken } = await import('@/server/connections/token-sealing');
  const { getJobs, startLocalRunner } = await import('@/server/jobs');
  const { runnableJobs } = await import('@/server/runtime/job-handlers');
  const { startFakePlatformApi } = await import('@/server/platforms/testing/fake-platform-api');

  const certPath = process.env.BENCH_FAKE_CERT!;
  const tls = { cert: readFileSync(certPath, 'utf8'), key: readFileSync(path.join(path.dirname(certPath), 'key.pem'), 'utf8') };
  const api = await startFakePlatformApi({ tls });
  answerLikeTheNetworks(api);
  process.env.INSTAGRAM_GRAPH_BASE_URL = `${api.baseUrl}/instagram/v25.0`;
  process.env.FACEBOOK_GRAPH_BASE_URL = `${api.baseUrl}/facebook/v25.0`;
  process.env.X_API_BASE_URL = `${api.baseUrl}/twitter`;
  process.env.TIKTOK_API_BASE_URL = `${api.baseUrl}/tiktok`;
  process.env.YOUTUBE_API_BASE_URL = `${api.baseUrl}/youtube`;
  process.env.REDDIT_API_BASE_URL = `${api.baseUrl}/reddit`;

  let t = performance.now();
  const ws = await db.workspace.create({ data: { name: 'Bench collection', slug: `bench-collect-${Date.now()}` } });
  const connections: { id: string; platform: string }[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const platform = NETWORKS[i % NETWORKS.length]!;
    connections.push(
      await db.connection.create({
        data: {
          workspaceId: ws.id,
          platform,
          provider: 'live',
          externalId: platform === 'bluesky' ? `did:plc:bench${i}` : `${platform}-${i}`,
          accountName: `bench${i}`,
          displayName: `Bench ${platform} ${i}`,
          accessToken: sealToken(`token-${i}`),
          tokenExpiresAt: new Date(Date.now() + 7 * 86_400_000),
          platformData: platform === 'bluesky' ? { pds: `${api.baseUrl}/bluesky`, did: `did:plc:bench${i}`, handle: `bench${i}.bsky.social` } : {},
        },
      }),
    );
  }
  // Published 1 to 2 hours ago: every target is due for its 1h slot.
  const now = Date.now();
  for (let start = 0; start < TARGETS; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, TARGETS - start) }, (_, i) => {
      const n = start + i;
      const c = n % CONNECTIONS;
      const platform = NETWORKS[c % NETWORKS.length]!;
      const publishedAt = new Date(now - 3_600_000 - 60_000 - Math.floor(((n * 7919) % TARGETS) * (3_480_000 / TARGETS)));
      return { id: crypto.randomUUID(), n, c, platform, publishedAt };
    });
    await db.post.createMany({
      data: batch.map((b) => ({
        id: b.id,
        workspaceId: ws.id,
        content: `Bench post ${b.n}`,
        mediaUrls: [],
        platforms: [b.platform],
        connectionIds: [connections[b.c]!.id],
        status: 'published',
        scheduledAt: b.publishedAt,
        publishedAt: b.publishedAt,
      })),
    });
    await db.postTarget.createMany({
      data: batch.map((b) => ({
        postId: b.id,
        connectionId: connections[b.c]!.id,
        platform: b.platform,
        status: 'published',
        postedId: postedId(b.platform, b.n, b.c),
        attempts: 1,
        publishedAt: b.publishedAt,
      })),
    });
  }
  await db.$executeRawUnsafe('VACUUM ANALYZE "PostTarget"');
  console.log(`set up ${TARGETS} published targets over ${CONNECTIONS} live connections in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const runner = await startLocalRunner({ connectionString: url, definitions: runnableJobs, concurrency: CONCURRENCY, pollIntervalMs: 200 });
  t = performance.now();
  await getJobs().enqueue('metrics.sweep', {}, { key: 'bench-metrics-sweep' });
  let written = 0;
  await bounded(
    (async () => {
      while (written < TARGETS) {
        await new Promise((r) => setTimeout(r, 100));
        written = await db.postMetricReading.count({ where: { slot: '1h' } });
      }
    })(),
    3_600_000,
    'every target’s 1h reading',
  );
  const seconds = (performance.now() - t) / 1000;
  await runner.stop();
  const failed = await db.connection.count({ where: { metricsErrorAt: { not: null } } });
  const withValues = await db.postMetricReading.count({ where: { slot: '1h', engagement: { not: null } } });
  const calls = [...api.requests];
  await api.close();

  console.log(`runner: local (graphile-worker), concurrency ${CONCURRENCY}; metrics.sweep queued once, one metrics.collect per connection`);
  console.log(
    `targets ${TARGETS}, 1h readings written ${written} (${withValues} with engagement), connections failed ${failed}: ${seconds.toFixed(1)} s wall, ${(written / seconds).toFixed(0)} readings/s`,
  );
  for (const network of NETWORKS) {
    const mine = calls.filter((r) => r.path.startsWith(`/${network}/`));
    const ids = mine.map((r) => idsIn(network, r));
    const total = ids.reduce((a, b) => a + b, 0);
    const conns = connections.filter((c) => c.platform === network).length;
    console.log(
      `  ${network.padEnd(10)} ${String(conns).padStart(2)} connections  ${String(mine.length).padStart(4)} calls  ${String(total).padStart(5)} ids  ${(total / Math.max(1, mine.length)).toFixed(1)} ids/call (max ${Math.max(0, ...ids)})`,
    );
  }
  console.log(`  total      ${calls.length} calls for ${TARGETS} targets`);
  const margin = 3600 / seconds;
  console.log(`fits in one hour: ${seconds < 3600 ? `yes, ${seconds.toFixed(0)} s of 3600 s (${margin.toFixed(0)}× margin)` : 'NO'}`);
}

async function topPostsQuery() {
  const { db } = await import('@/server/db/client');
  const { createApiKey } = await import('@/server/api-keys/mint-api-key');
  const { SCOPES } = await import('@/server/auth/scopes');
  const { startTestServer } = await import('@/server/testing/api-server');
  const { handlePublicApi } = await import('@/server/http/rest-handler');
  const { addDays } = await import('@/server/shared/analytics-window');

  const to = new Date().toISOString().slice(0, 10);
  let key = '';
  let t = performance.now();
  const workspaceIds: string[] = [];
  for (const [w, name] of ['Bench', 'Other'].entries()) {
    const ws = await db.workspace.create({ data: { name, slug: `bench-posts-${w}-${Date.now()}` } });
    workspaceIds.push(ws.id);
    if (w === 0) key = (await createApiKey({ workspaceId: ws.id, name: 'bench', scopes: SCOPES })).secret;
    for (let a = 0; a < ACCOUNTS; a++) {
      const platform = NETWORKS[a % NETWORKS.length]!;
      const c = await db.connection.create({
        data: {
          workspaceId: ws.id,
          platform,
          provider: 'sandbox',
          sandboxBehavior: 'ok',
          externalId: `${platform}-${w}-${a}`,
          accountName: `acc${a}`,
          displayName: `Account ${a}`,
        },
      });
      // POSTS_PER_DAY posts a day for DAYS days, published at spread hours; one target each.
      await db.$executeRawUnsafe(`
        WITH p AS (
          INSERT INTO "Post" (id, "workspaceId", content, "mediaUrls", platforms, "connectionIds", status, "scheduledAt", "publishedAt", "createdAt", "updatedAt")
          SELECT gen_random_uuid(), '${ws.id}'::uuid, 'Bench post ' || g || '/' || k || ' of account ${a}: ' || repeat('text ', 30), ARRAY['https://cdn.example/' || g || '.jpg'],
                 ARRAY['${platform}'], ARRAY['${c.id}'], 'published', x.at, x.at, x.at, x.at
            FROM generate_series(0, ${DAYS - 1}) g, generate_series(0, ${POSTS_PER_DAY - 1}) k,
                 LATERAL (SELECT '${to}'::date - g + make_interval(hours => 8 + (k * 5 + ${a}) % 14, mins => (g * 7 + k * 13) % 60) AS at) x
           WHERE x.at < now() - interval '2 hours'
          RETURNING id, "publishedAt")
        INSERT INTO "PostTarget" (id, "postId", "connectionId", platform, status, "postedId", permalink, attempts, "publishedAt", "createdAt", "updatedAt")
        SELECT gen_random_uuid(), p.id, '${c.id}'::uuid, '${platform}', 'published', 'sbx-' || p.id, 'https://example.com/p/' || p.id, 1, p."publishedAt", p."publishedAt", p."publishedAt" FROM p`);
      // A reading per elapsed slot, growing from slot to slot.
      await db.$executeRawUnsafe(`
        INSERT INTO "PostMetricReading" (id, "targetId", "workspaceId", "connectionId", platform, slot, trigger, source, "collectedAt",
                                         impressions, reach, views, reactions, comments, shares, saves, "linkClicks", "videoWatchSeconds", engagement, "nullReasons", "networkNames")
        SELECT gen_random_uuid(), t.id, '${ws.id}'::uuid, t."connectionId", t.platform, s.slot, 'schedule', 'sandbox', t."publishedAt" + s.after,
               v.base * 10 * s.f, v.base * 7 * s.f, NULL, v.base * s.f, v.base / 10 * s.f, v.base / 20 * s.f, v.base / 30 * s.f, NULL, NULL,
               round(v.base * s.f + v.base / 10 * s.f + v.base / 20 * s.f + v.base / 30 * s.f),
               '{"views":"Sandbox","linkClicks":"Sandbox","videoWatchSeconds":"Sandbox"}'::jsonb, '{"reactions":"likes"}'::jsonb
          FROM "PostTarget" t
          CROSS JOIN LATERAL (SELECT (abs(hashtext(t.id::text)) % 900 + 100)::float8 AS base) v
          CROSS JOIN (VALUES ('1h', interval '1 hour', 0.2), ('24h', interval '24 hours', 0.7), ('7d', interval '7 days', 0.95), ('28d', interval '28 days', 1.0)) s(slot, after, f)
         WHERE t."connectionId" = '${c.id}'::uuid AND t."publishedAt" + s.after <= now()`);
    }
  }
  for (const table of ['Post', 'PostTarget', 'PostMetricReading', 'PostTargetResult']) await db.$executeRawUnsafe(`VACUUM ANALYZE "${table}"`);
  const targets = await db.postTarget.count({ where: { post: { workspaceId: { in: workspaceIds } } } });
  const readings = await db.postMetricReading.count({ where: { workspaceId: { in: workspaceIds } } });
  console.log(
    `seeded ${targets} published targets and ${readings} readings (${ACCOUNTS} accounts × ${DAYS} days × ${POSTS_PER_DAY} posts/day × 2 workspaces, a reading per elapsed slot) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  if (TRY_SQL) {
    await db.$executeRawUnsafe(TRY_SQL);
    for (const table of ['PostTarget', 'PostMetricReading', 'PostTargetResult']) await db.$executeRawUnsafe(`ANALYZE "${table}"`);
    console.log(`ran TRY_SQL: ${TRY_SQL}`);
  }
  if (EXPLAIN) await explainWindowRows();
  const server = await startTestServer({ '/public/v1': handlePublicApi });
  const cases: [string, number, string][] = [];
  for (const days of [30, 90, 366]) for (const sort of ['engagement', 'impressions']) cases.push([`top posts ${days} days, sort ${sort}`, days, sort]);
  for (const [name, days, sort] of cases) {
    // The window slides back a day per request over the past year, as people pick ranges.
    const query = (i: number) => `from=${addDays(to, -(days - 1) - (i % 300))}&to=${addDays(to, -(i % 300))}&sort=${sort}&limit=10`;
    const get = async (i: number) => {
      const res = await fetch(`${server.url}/public/v1/analytics/top-posts?${query(i)}`, { headers: { authorization: `Bearer ${key}` } });
      if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
      return (await res.json()) as { provenance: { postsInWindow: number } };
    };
    let inWindow = 0;
    for (let i = 0; i < 20; i++) inWindow = (await get(i)).provenance.postsInWindow; // warm
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      t = performance.now();
      await get(i);
      samples.push(performance.now() - t);
    }
    console.log(`${name.padEnd(34)} ${quantiles(samples)}  (~${inWindow} targets in window; ${RUNS} sequential requests over HTTP)`);
  }
  await server.close();
}

/**
 * EXPLAIN=1: the plans of top posts' two statements (copies of topPosts' SQL in
 * server/analytics/post-metrics/read-metrics.ts, workspace time zone UTC) for 30 and 366 days:
 * the ranking (LIMIT 10 over PostTargetResult) and the per-network sums.
 */
async function explainWindowRows() {
  const { db } = await import('@/server/db/client');
  const { addDays } = await import('@/server/shared/analytics-window');
  const ws = await db.workspace.findFirstOrThrow({ where: { name: 'Bench' }, select: { id: true } });
  const to = new Date().toISOString().slice(0, 10);
  const where = `l."workspaceId" = $1::uuid AND l."publishedAt" >= ($2::date::timestamp AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
    AND l."publishedAt" < (($3::date + 1)::timestamp AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
  const statements = {
    ranking: `WITH top AS (SELECT l."targetId" FROM "PostTargetResult" l WHERE ${where} AND l."readingId" IS NOT NULL AND l.engagement IS NOT NULL
                ORDER BY l.engagement DESC, l."publishedAt" DESC, l."targetId" LIMIT 10)
              SELECT l.*, c."accountName", p.content, p."mediaUrls", t.permalink, r."nullReasons", r."networkNames"
                FROM top JOIN "PostTargetResult" l ON l."targetId" = top."targetId" JOIN "PostTarget" t ON t.id = l."targetId"
                JOIN "Post" p ON p.id = l."postId" JOIN "Connection" c ON c.id = l."connectionId" LEFT JOIN "PostMetricReading" r ON r.id = l."readingId"
               ORDER BY l.engagement DESC, l."publishedAt" DESC, l."targetId"`,
    'per-network sums': `SELECT l.platform, count(*), count(l."readingId"), max(l."collectedAt"), bool_and(l.source = 'sandbox'),
              sum(l.impressions), sum(l.reach), sum(l.views), sum(l.reactions), sum(l.comments), sum(l.shares), sum(l.saves),
              sum(l."linkClicks"), sum(l."videoWatchSeconds"), sum(l.engagement)
         FROM "PostTargetResult" l WHERE ${where} GROUP BY l.platform`,
  };
  for (const days of [30, 366]) {
    const from = addDays(to, -(days - 1));
    for (const [name, sql] of Object.entries(statements)) {
      const plan = await db.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, ws.id, from, to);
      console.log(`EXPLAIN ANALYZE, window of ${days} days, ${name}:\n  ${plan.map((r) => r['QUERY PLAN']).join('\n  ')}`);
    }
  }
}

await withBenchDatabase(async (url) => {
  if (PARTS.includes('1')) await collectionKeepsUp(url);
  if (PARTS.includes('2')) await topPostsQuery();
});
process.exit(0);
