// The comments inbox at scale: ACCOUNTS live accounts (default 50) of one workspace, POSTS
// published posts each (default 40, over the last 28 days), COMMENTS comments under each
// account's posts (default 2,000: 100,000 inbox items). Each account's network is a scripted
// comments client in this process (passed as collectConnectionComments' `client`, no network
// calls): what is measured is Herald's own work, the reading, comparing and writing.
//
// 1. Collection, CONCURRENCY accounts at a time (default 4), as the job runner would run the
//    inbox.collect jobs the sweep queues:
//    - the first read: every account's posts read, every item written (items/s);
//    - read again with nothing new on the networks, twice (every post due again: the clock is
//      moved past the schedule's interval): statements sent per account and in total, counted
//      on the driver (every pool in the process runs its statements through pg.Client#query);
//    - read again after a few edits, deletions, hidings and new comments on every account.
//    An account whose collection fails (the job would fail and be retried) is counted and its
//    error printed; the accounts whose first read failed are read again one at a time.
// 2. GET /public/v1/inbox over HTTP (the REST facade: key check, rate limit, validation) at
//    100,000 items, most older ones handled by the team (done and read), plus a quiet account
//    (20 comments) on a network none of the others is on: the default list (open, newest
//    first, limit 50), each filter (a busy and a quiet account or network), and following the
//    cursor PAGES pages deep. RUNS sequential requests per case (default 300): p50/p95/p99,
//    the statements one request sends, and the goal p95 < 50 ms.
// 3. Webhook ingestion: messages pushed by the network (Meta's signed webhook, POST /hooks/meta)
//    at 1,000 items/s, p95 from arrival to the row, and the receiver killed mid-burst. It is
//    bench/inbox-webhooks.ts, run here as a child process once parts 1 and 2 are done (its own
//    database and a receiver process it can SIGKILL); WEBHOOKS=0 skips it, and it runs alone as
//    `npx tsx bench/inbox-webhooks.ts` (its settings: RATE, DURATION, BATCH, … pass through).
// Prints numbers; asserts no time.
//   npx tsx bench/inbox.ts   (ACCOUNTS=50 POSTS=40 COMMENTS=2000 CONCURRENCY=4 RUNS=300 PAGES=20 WEBHOOKS=1)
// EXPLAIN=1 prints EXPLAIN (ANALYZE, BUFFERS) of the statements one request of each case sends
// (captured on the driver with their parameters). TRY_SQL runs SQL after seeding, before the
// requests: to try an index without a migration.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { withBenchDatabase } from './bench-database';

const ACCOUNTS = Number(process.env.ACCOUNTS ?? 50);
const POSTS = Number(process.env.POSTS ?? 40);
const COMMENTS = Number(process.env.COMMENTS ?? 2_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const RUNS = Number(process.env.RUNS ?? 300);
const PAGES = Number(process.env.PAGES ?? 20);
const EXPLAIN = process.env.EXPLAIN === '1';
const TRY_SQL = process.env.TRY_SQL;
const GOAL_MS = 50;
process.env.RATE_LIMIT_PER_MINUTE = '100000000';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Networks whose live accounts have a comments client; the accounts take turns. */
const NETWORKS = ['instagram', 'facebook', 'threads', 'youtube', 'linkedin'] as const;
/** The quiet account's network (part 2). */
const QUIET_NETWORK = 'mastodon';

type NetworkComment = import('@/server/platforms/comments').NetworkComment;
type CommentsClient = import('@/server/platforms/comments').CommentsClient;
type CollectResult = import('@/server/inbox/collect-comments').CollectCommentsResult;

/** A small deterministic generator (mulberry32): the same data every run. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const OPENINGS = [
  'Do you ship to Canada?',
  'Love this!',
  'What size is the bag?',
  'Is this vegan?',
  'When is the next drop?',
  'Beautiful colours',
  'How much is it?',
];
const TAILS = [
  '',
  ' Would love to order one for my sister.',
  ' 😍',
  ' Asking for a friend.',
  ' Been waiting for this all year, the last batch sold out in a day.',
];
const ANSWERS = ['Thank you!', 'Yes, we ship worldwide.', 'Sent you a DM 💌', 'Restocking on Friday!', 'It is 100% plant-based.'];

/** What one account's network holds: its posts' comments, oldest first, replies after their parents. */
function networkOf(account: number, posts: { postedId: string; publishedAt: Date }[], now: Date, total: number): Map<string, NetworkComment[]> {
  const rnd = random(account + 1);
  // Some posts draw many more comments than others.
  const weights = posts.map((_, k) => 1 / (1 + ((k * 17) % posts.length) / 4));
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.floor((w / sum) * total));
  counts[0] = counts[0]! + total - counts.reduce((a, b) => a + b, 0);
  const network = new Map<string, NetworkComment[]>();
  posts.forEach((post, k) => {
    const n = counts[k]!;
    const age = now.getTime() - post.publishedAt.getTime();
    // Most comments come in the first hours.
    const offsets = Array.from({ length: n }, () => Math.floor(age * rnd() ** 4)).sort((a, b) => a - b);
    const comments: NetworkComment[] = [];
    const others: NetworkComment[] = [];
    for (let i = 0; i < n; i++) {
      const createdAt = new Date(post.publishedAt.getTime() + 1000 + offsets[i]!);
      const id = `${post.postedId}_${i}`;
      const kind = rnd();
      // About 1 in 10 from the account (answers), 1 in 4 replies from others, the rest top-level.
      const fromAccount = kind < 0.1 && others.length > 0;
      const parent = fromAccount || (kind < 0.35 && others.length > 0) ? others[Math.floor(rnd() * others.length)]!.id : null;
      const person = Math.floor(rnd() * 5_000);
      const edited = !fromAccount && rnd() < 0.03;
      const comment: NetworkComment = {
        id,
        parentId: parent,
        authorId: fromAccount ? `acct-${account}` : `person-${person}`,
        authorName: fromAccount ? `Bench account ${account}` : `Person ${person}`,
        authorHandle: fromAccount ? `@bench${account}` : `@person${person}`,
        authorAvatarUrl: person % 3 === 0 ? `https://cdn.example/avatars/${person}.jpg` : null,
        text: fromAccount
          ? ANSWERS[Math.floor(rnd() * ANSWERS.length)]!
          : `${OPENINGS[Math.floor(rnd() * OPENINGS.length)]}${TAILS[Math.floor(rnd() * TAILS.length)]}${edited ? ' (edited)' : ''}`,
        createdAt,
        editedAt: edited ? new Date(createdAt.getTime() + 5 * MINUTE) : null,
        permalink: `https://www.example.com/p/${post.postedId}/c/${id}`,
        hidden: false,
        fromAccount,
      };
      comments.push(comment);
      if (!fromAccount) others.push(comment);
    }
    network.set(post.postedId, comments);
  });
  return network;
}

/** Statements this process sends while `fn` runs, with their parameters. */
async function onDriver<T>(fn: () => Promise<T>): Promise<{ value: T; statements: { text: string; values: unknown[] }[] }> {
  const statements: { text: string; values: unknown[] }[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    const text = typeof config === 'string' ? config : ((config as { text?: string } | undefined)?.text ?? '');
    const values = typeof config === 'string' ? rest[0] : (config as { values?: unknown } | undefined)?.values;
    statements.push({ text: text.replace(/\s+/g, ' ').trim(), values: Array.isArray(values) ? values : [] });
    return (original as (...args: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof original;
  try {
    return { value: await fn(), statements };
  } finally {
    pg.Client.prototype.query = original;
  }
}

/** Runs `fn` over `items`, `concurrency` at a time. */
async function pool<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i]!);
      }
    }),
  );
  return results;
}

const quantile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** A table: the header, then one row per line, columns padded (text left, numbers right). */
function table(header: string[], rows: (string | number)[][]) {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[], numeric: boolean) =>
    r.map((c, i) => (i > 0 && numeric && /^[\d.,<>= –-]+$/.test(c) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  console.log(line(header, false));
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r, true));
}

await withBenchDatabase(async (url) => {
  const { db } = await import('@/server/db/client');
  const { createApiKey } = await import('@/server/api-keys/mint-api-key');
  const { SCOPES } = await import('@/server/auth/scopes');
  const { startTestServer } = await import('@/server/testing/api-server');
  const { handlePublicApi } = await import('@/server/http/rest-handler');
  const { kickOutboxDrain } = await import('@/server/events/kick-outbox');
  const { collectConnectionComments, sweepDueComments } = await import('@/server/inbox/collect-comments');

  // ── Seeding: the workspace, its accounts and their published posts ──
  let t = performance.now();
  const now0 = new Date();
  const workspace = await db.workspace.create({ data: { name: 'Bench inbox', slug: `bench-inbox-${Date.now()}` } });
  const key = (await createApiKey({ workspaceId: workspace.id, name: 'bench', scopes: SCOPES })).secret;
  type Account = { id: string; platform: string; client: CommentsClient; network: Map<string, NetworkComment[]> };
  const postIds: string[] = [];
  /** Account `a` on `platform`: its posts published, its network holding `comments` comments under them. */
  async function seedAccount(a: number, platform: string, comments: number): Promise<Account> {
    const connection = await db.connection.create({
      data: {
        workspaceId: workspace.id,
        platform,
        provider: 'live',
        externalId: `${platform}-${a}`,
        accountName: `bench${a}`,
        displayName: `Bench ${platform} ${a}`,
        tokenExpiresAt: new Date(now0.getTime() + 60 * DAY),
      },
    });
    // One post every ~16 hours over the last 28 days, newest first.
    const posts = Array.from({ length: POSTS }, (_, k) => ({
      id: crypto.randomUUID(),
      postedId: `${platform}-${a}-post-${k}`,
      publishedAt: new Date(now0.getTime() - HOUR - Math.floor((k * (27 * DAY)) / POSTS) - a * MINUTE),
    }));
    await db.post.createMany({
      data: posts.map((p) => ({
        id: p.id,
        workspaceId: workspace.id,
        content: `Bench post ${p.postedId}`,
        mediaUrls: [],
        platforms: [platform],
        connectionIds: [connection.id],
        status: 'published',
        scheduledAt: p.publishedAt,
        publishedAt: p.publishedAt,
      })),
    });
    await db.postTarget.createMany({
      data: posts.map((p) => ({
        postId: p.id,
        connectionId: connection.id,
        platform,
        status: 'published',
        postedId: p.postedId,
        attempts: 1,
        publishedAt: p.publishedAt,
      })),
    });
    postIds.push(...posts.map((p) => p.id));
    const network = networkOf(a, posts, now0, comments);
    const client: CommentsClient = {
      source: platform,
      readComments: async (_connection, post) => ({ ok: true, comments: network.get(post.postedId) ?? [], complete: true }),
    };
    return { id: connection.id, platform, client, network };
  }
  const accounts: Account[] = [];
  for (let a = 0; a < ACCOUNTS; a++) accounts.push(await seedAccount(a, NETWORKS[a % NETWORKS.length]!, COMMENTS));
  await db.$executeRawUnsafe('VACUUM ANALYZE "Post"');
  await db.$executeRawUnsafe('VACUUM ANALYZE "PostTarget"');
  const onNetworks = accounts.reduce((n, a) => n + [...a.network.values()].reduce((m, c) => m + c.length, 0), 0);
  const ownOnNetworks = accounts.reduce((n, a) => n + [...a.network.values()].reduce((m, c) => m + c.filter((x) => x.fromAccount).length, 0), 0);
  const repliesOnNetworks = accounts.reduce((n, a) => n + [...a.network.values()].reduce((m, c) => m + c.filter((x) => x.parentId).length, 0), 0);
  console.log(
    `seeded ${ACCOUNTS} live accounts (${NETWORKS.join(', ')}), ${ACCOUNTS * POSTS} published posts, ${onNetworks} comments on the networks ` +
      `(${repliesOnNetworks} replies, ${ownOnNetworks} from the accounts) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  await kickOutboxDrain(); // the job queue's schema and pool, before anything is counted

  // ── 1. Collection ──
  /** One account's collection; a failure (the job would fail and be retried) is counted, not thrown. */
  const collect = (a: (typeof accounts)[number], now: Date): Promise<CollectResult> =>
    collectConnectionComments(a.id, { client: a.client, now }).catch((e: Error) => ({
      connectionId: a.id,
      ok: false,
      posts: 0,
      inserted: 0,
      updated: 0,
      deleted: 0,
      error: (e.message.split('\n').filter(Boolean).at(-1) ?? e.message).replace(/\d+ ms passed/, 'N ms passed'),
    }));
  const collectAll = async (now: Date, which = accounts, concurrency = CONCURRENCY) =>
    onDriver(async () => {
      const started = performance.now();
      const results = await pool(which, concurrency, (a) => collect(a, now));
      const ms = performance.now() - started;
      // The kicks of new items' events, in flight when the last account finished, fall inside the count.
      if (results.some((r) => r.inserted)) await kickOutboxDrain();
      return { results, ms };
    });
  const rows: (string | number)[][] = [];
  const failures = new Map<string, number>();
  const record = (name: string, run: Awaited<ReturnType<typeof collectAll>>, accountsRead = ACCOUNTS) => {
    const { results, ms } = run.value;
    for (const r of results) if (r.error) failures.set(`${name}: ${r.error}`, (failures.get(`${name}: ${r.error}`) ?? 0) + 1);
    const sum = (k: 'posts' | 'inserted' | 'updated' | 'deleted') => results.reduce((n, r) => n + r[k], 0);
    const failed = results.filter((r) => !r.ok).length;
    const written = sum('inserted') + sum('updated') + sum('deleted');
    rows.push([
      name,
      sum('posts'),
      sum('inserted'),
      sum('updated'),
      sum('deleted'),
      (ms / 1000).toFixed(2),
      written ? Math.round(written / (ms / 1000)) : '–',
      run.statements.length,
      (run.statements.length / accountsRead).toFixed(1),
      failed,
    ]);
  };

  const sweep = await onDriver(() => sweepDueComments(now0));
  console.log(
    `sweep at the first read: ${sweep.value.connections} accounts due, ${sweep.statements.length} statements (the due accounts, their inbox.collect jobs queued)`,
  );
  const first = await collectAll(now0);
  record('first read: every item new', first);
  // The accounts whose first read failed, read again one at a time, as the job's retry would.
  const retried = accounts.filter((a) => first.value.results.find((r) => r.connectionId === a.id && !r.ok));
  if (retried.length) record(`  its ${retried.length} failed accounts, one at a time`, await collectAll(now0, retried, 1), retried.length);
  const events = await db.outboxEvent.count({ where: { workspaceId: workspace.id, type: 'comment.received' } });
  // Posts under 30 days are read at least every 6 hours: 6 hours later, every post is due again.
  const at = (n: number) => new Date(now0.getTime() + n * (6 * HOUR + MINUTE));
  const second = await collectAll(at(1));
  record('again, nothing new (2nd read)', second);
  const third = await collectAll(at(2));
  record('again, nothing new (3rd read)', third);

  // A few changes on every account's network: edits, deletions, hidings, new comments and replies.
  const rnd = random(4242);
  const changes = { edited: 0, deleted: 0, hidden: 0, added: 0 };
  for (const [a, account] of accounts.entries()) {
    const lists = [...account.network.values()].filter((l) => l.length > 5);
    const pick = () => {
      const list = lists[Math.floor(rnd() * lists.length)]!;
      return { list, i: Math.floor(rnd() * list.length) };
    };
    for (let n = 0; n < 10; n++) {
      const { list, i } = pick();
      if (list[i]!.fromAccount) continue;
      list[i] = { ...list[i]!, text: `${list[i]!.text} (edited)`, editedAt: new Date(at(3).getTime() - MINUTE) };
      changes.edited++;
    }
    for (let n = 0; n < 2; n++) {
      const { list, i } = pick();
      list[i] = { ...list[i]!, hidden: true };
      changes.hidden++;
    }
    for (let n = 0; n < 5; n++) {
      const { list, i } = pick();
      // Only a comment without replies: its replies would go with it.
      if (list.some((c) => c.parentId === list[i]!.id)) continue;
      list.splice(i, 1);
      changes.deleted++;
    }
    for (let n = 0; n < 10; n++) {
      const { list, i } = pick();
      const id = `new-${a}-${n}`;
      const parentId = n % 2 ? list[i]!.id : null;
      list.push({
        ...list[i]!,
        id,
        parentId,
        fromAccount: false,
        authorName: `Newcomer ${n}`,
        text: 'Just found you!',
        createdAt: at(3),
        editedAt: null,
        hidden: false,
      });
      changes.added++;
    }
  }
  const changed = await collectAll(at(3));
  record(`after ${changes.edited} edits, ${changes.deleted} deletions, ${changes.hidden} hidings, ${changes.added} new`, changed);

  const items = await db.inboxItem.count({ where: { workspaceId: workspace.id } });
  console.log(`\n1. Collection (${ACCOUNTS} accounts, ${CONCURRENCY} at a time; statements counted on the driver):`);
  table(['read', 'posts', 'inserted', 'updated', 'deleted', 'seconds', 'items/s', 'statements', 'per account', 'failed'], rows);
  for (const [what, n] of failures) console.log(`   FAILED ${n}× ${what}`);
  console.log(`   ${items} inbox items stored; ${events} comment.received events written by the first read (the accounts’ own comments raise none)`);
  const shapes = (run: { statements: { text: string }[] }) => {
    const counts = new Map<string, number>();
    for (const s of run.statements) {
      const head = s.text.replace(/"public"\./g, '').slice(0, 60);
      counts.set(head, (counts.get(head) ?? 0) + 1);
    }
    return [...counts].map(([head, n]) => `      ${String(n).padStart(5)} × ${head}`).join('\n');
  };
  console.log(`   statements of the 2nd read (nothing new):\n${shapes(second)}`);
  console.log(`   statements of the 3rd read (nothing new):\n${shapes(third)}`);
  console.log('   (Prisma batches the account lookups of collections running at once: fewer than one per account.)');

  // ── 2. GET /inbox ──
  // Plus one quiet account on a network none of the others is on: 20 comments among 100,000
  // (the account and network filters then find few rows, wherever they are in the list).
  const quiet = await seedAccount(ACCOUNTS, QUIET_NETWORK, 20);
  await collect(quiet, at(3));
  const listed = await db.inboxItem.count({ where: { workspaceId: workspace.id } });
  // Most older items handled by the team: read and done; recent ones mostly open, partly read.
  t = performance.now();
  await db.$executeRaw`
    UPDATE "InboxItem" SET
      status = CASE WHEN "fromAccount" THEN 'done'
                    WHEN "networkCreatedAt" < ${new Date(now0.getTime() - 7 * DAY)} AND abs(hashtext(id::text)) % 10 < 9 THEN 'done'
                    WHEN "networkCreatedAt" < ${new Date(now0.getTime() - DAY)} AND abs(hashtext(id::text)) % 10 < 5 THEN 'done'
                    ELSE 'open' END,
      "seenAt" = CASE WHEN "networkCreatedAt" < ${new Date(now0.getTime() - DAY)} OR abs(hashtext(id::text)) % 10 < 4 THEN "networkCreatedAt" + interval '2 hours' END
     WHERE "workspaceId" = ${workspace.id}::uuid`;
  // Handled items are read.
  await db.$executeRaw`UPDATE "InboxItem" SET "seenAt" = COALESCE("seenAt", "networkCreatedAt" + interval '2 hours') WHERE status = 'done' AND "workspaceId" = ${workspace.id}::uuid`;
  await db.$executeRawUnsafe('VACUUM ANALYZE "InboxItem"');
  const [mix] = await db.$queryRaw<{ open: number; unread: number; done: number; own: number; deleted: number }[]>`
    SELECT count(*) FILTER (WHERE status = 'open' AND NOT "fromAccount")::int AS open,
           count(*) FILTER (WHERE status = 'open' AND NOT "fromAccount" AND "seenAt" IS NULL AND "deletedAt" IS NULL)::int AS unread,
           count(*) FILTER (WHERE status = 'done' AND NOT "fromAccount")::int AS done,
           count(*) FILTER (WHERE "fromAccount")::int AS own,
           count(*) FILTER (WHERE "deletedAt" IS NOT NULL)::int AS deleted
      FROM "InboxItem" WHERE "workspaceId" = ${workspace.id}::uuid`;
  console.log(
    `\n2. GET /public/v1/inbox over HTTP at ${listed} items (with a quiet ${QUIET_NETWORK} account's 20): ${mix!.open} open (${mix!.unread} unread), ${mix!.done} done, ${mix!.own} the accounts’ own (not listed), ${mix!.deleted} deleted` +
      ` (team's handling set in ${((performance.now() - t) / 1000).toFixed(1)} s)`,
  );
  if (TRY_SQL) {
    await db.$executeRawUnsafe(TRY_SQL);
    await db.$executeRawUnsafe('ANALYZE "InboxItem"');
    console.log(`ran TRY_SQL: ${TRY_SQL}`);
  }

  const server = await startTestServer({ '/public/v1': handlePublicApi });
  type Page = { data: unknown[]; nextCursor: string | null; unread: number };
  const get = async (query: string): Promise<Page> => {
    const res = await fetch(`${server.url}/public/v1/inbox${query ? `?${query}` : ''}`, { headers: { authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`GET /inbox?${query}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Page;
  };
  const connectionIds = accounts.map((a) => a.id);
  const platforms = [...new Set(accounts.map((a) => a.platform))];
  /** Each case: the query of its i-th request. The cursor case walks PAGES pages deep, again and again. */
  const cursorWalk = { cursor: null as string | null, page: 0 };
  const cases: [string, (i: number) => Promise<string>][] = [
    ['default (open, newest first, 50)', async () => ''],
    ['platform=…', async (i) => `platform=${platforms[i % platforms.length]}`],
    ['connectionId=…', async (i) => `connectionId=${connectionIds[(i * 7) % connectionIds.length]}`],
    [`connectionId=quiet account`, async () => `connectionId=${quiet.id}`],
    [`platform=${QUIET_NETWORK} (quiet)`, async () => `platform=${QUIET_NETWORK}`],
    ['postId=…', async (i) => `postId=${postIds[(i * 37) % postIds.length]}`],
    ['status=all', async () => 'status=all'],
    ['unread=true', async () => 'unread=true'],
    ['platform + unread', async (i) => `platform=${platforms[i % platforms.length]}&unread=true`],
    [
      `cursor, pages 1–${PAGES}`,
      async () => {
        if (cursorWalk.page >= PAGES || (cursorWalk.page > 0 && !cursorWalk.cursor)) Object.assign(cursorWalk, { cursor: null, page: 0 });
        return cursorWalk.cursor ? `cursor=${cursorWalk.cursor}` : '';
      },
    ],
  ];
  const explainer = EXPLAIN ? new pg.Client({ connectionString: url }) : null;
  await explainer?.connect();
  const results: (string | number)[][] = [];
  let deepest = 0;
  for (const [name, queryOf] of cases) {
    const isWalk = name.startsWith('cursor');
    const run = async (i: number) => {
      const query = await queryOf(i);
      const page = await get(query);
      if (isWalk) Object.assign(cursorWalk, { cursor: page.nextCursor, page: cursorWalk.page + 1 });
      return page;
    };
    for (let i = 0; i < 20; i++) await run(i); // warm
    Object.assign(cursorWalk, { cursor: null, page: 0 });
    const samples: number[] = [];
    let rowsSeen = 0;
    for (let i = 0; i < RUNS; i++) {
      t = performance.now();
      const page = await run(i);
      samples.push(performance.now() - t);
      rowsSeen += page.data.length;
      if (isWalk) deepest = Math.max(deepest, cursorWalk.page);
    }
    // One more request, its statements captured on the driver.
    Object.assign(cursorWalk, { cursor: null, page: 0 });
    if (isWalk) for (let p = 1; p < PAGES; p++) await run(p);
    const captured = await onDriver(() => run(RUNS));
    samples.sort((a, b) => a - b);
    const p95 = quantile(samples, 0.95);
    results.push([
      name,
      RUNS,
      (rowsSeen / RUNS).toFixed(1),
      quantile(samples, 0.5).toFixed(1),
      p95.toFixed(1),
      quantile(samples, 0.99).toFixed(1),
      captured.statements.length,
      p95 < GOAL_MS ? 'yes' : 'NO',
    ]);
    if (explainer) {
      for (const s of captured.statements.filter((x) => x.text.startsWith('SELECT'))) {
        const plan = await explainer.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${s.text}`, s.values);
        console.log(`EXPLAIN ANALYZE, ${name}: ${s.text.replace(/"public"\./g, '').slice(0, 160)}…\n  ${plan.rows.map((r) => r['QUERY PLAN']).join('\n  ')}`);
      }
    }
  }
  await explainer?.end();
  await server.close();
  console.log(`${RUNS} sequential requests per case over HTTP; the cursor case walks ${PAGES} pages deep (deepest reached: ${deepest}), again and again`);
  table(['case', 'requests', 'items/page', 'p50 ms', 'p95 ms', 'p99 ms', 'statements', `p95 < ${GOAL_MS} ms`], results);
});

if (process.env.WEBHOOKS !== '0') {
  console.log('\n3. Webhook ingestion (bench/inbox-webhooks.ts)');
  // Its own process: it SIGKILLs its receiver and must not share this one's pools.
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(new URL('./inbox-webhooks.ts', import.meta.url))], {
    stdio: 'inherit',
    env: process.env,
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) console.log(`webhook ingestion exited with ${code}`);
}
process.exit(0);
