// Guards on what collecting comments costs in database statements, so that the inbox's promise
// ("an account with nothing new costs the same few statements however many posts it has",
// collect-comments.ts) cannot slip away unnoticed. Nothing here measures time: the statements
// each step sends are counted on the driver (every pool in the process, Herald's and the job
// queue's, runs its statements through pg.Client#query), as server/webhooks/delivery-cost.test.ts does.
// bench/inbox.ts prints the same counts at 50 accounts and 100,000 items.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { statementShape, statementsOf } from '@/server/testing/statements';
import { kickOutboxDrain } from '@/server/events/kick-outbox';
import type { CommentsClient, NetworkComment } from '@/server/platforms/comments';
import { createWorkspace, uniq } from '@/server/testing/fixtures';
import { collectConnectionComments, sweepDueComments, type CollectCommentsResult } from './collect-comments';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A statement's shape: parameter lists and VALUES rows of any length read the same. */
const shape = statementShape;

/** A live Instagram account of a new workspace (its comments are read by a scripted client). */
async function liveAccount(workspaceId?: string) {
  const ws = workspaceId ?? (await createWorkspace()).id;
  return db.connection.create({
    data: {
      workspaceId: ws,
      platform: 'instagram',
      provider: 'live',
      externalId: uniq('ig'),
      accountName: uniq('acc'),
      displayName: 'Bench account',
      tokenExpiresAt: new Date(Date.now() + 30 * 24 * HOUR),
    },
  });
}

/** `posts` posts published at `publishedAt`, one published target each on the account. */
async function publishedPosts(connection: { id: string; workspaceId: string }, posts: number, publishedAt: Date) {
  const rows = Array.from({ length: posts }, (_, i) => ({ id: crypto.randomUUID(), postedId: `${connection.id}-p${i}` }));
  await db.post.createMany({
    data: rows.map((r) => ({
      id: r.id,
      workspaceId: connection.workspaceId,
      content: `Our autumn menu ${r.postedId}`,
      mediaUrls: [],
      platforms: ['instagram'],
      connectionIds: [connection.id],
      status: 'published',
      scheduledAt: publishedAt,
      publishedAt,
    })),
  });
  await db.postTarget.createMany({
    data: rows.map((r) => ({
      postId: r.id,
      connectionId: connection.id,
      platform: 'instagram',
      status: 'published',
      postedId: r.postedId,
      attempts: 1,
      publishedAt,
    })),
  });
}

/**
 * The network: under each post, `perPost` comments from people, every third one answered by a
 * reply from someone else and every fifth by the account itself (threads two and three deep).
 */
function scriptedNetwork(perPost: number, start: Date): CommentsClient {
  return {
    source: 'instagram',
    async readComments(_connection, post) {
      const comments: NetworkComment[] = [];
      for (let i = 0; i < perPost; i++) {
        const id = `${post.postedId}-c${i}`;
        const at = new Date(start.getTime() + i * MINUTE);
        const base = { authorId: `u${i}`, authorName: `Person ${i}`, authorHandle: `@person${i}`, permalink: null, createdAt: at };
        comments.push({ ...base, id, parentId: null, text: `Question ${i} about ${post.postedId}?`, fromAccount: false });
        if (i % 3 === 0) comments.push({ ...base, id: `${id}-r`, parentId: id, text: 'Same question!', fromAccount: false });
        if (i % 5 === 0) {
          const parentId = i % 3 === 0 ? `${id}-r` : id;
          comments.push({ ...base, id: `${id}-a`, parentId, authorName: 'Us', authorId: 'us', text: 'Thank you!', fromAccount: true });
        }
      }
      return { ok: true, comments, complete: true };
    },
  };
}

beforeAll(async () => {
  // Warm-up: the job queue's pool and schema, Prisma's first connection.
  await kickOutboxDrain();
});
afterEach(async () => {
  // Nothing queued here is run; the next test counts from an empty queue.
  await db.$executeRawUnsafe('DELETE FROM graphile_worker._private_jobs');
});

describe('what collecting an account costs', () => {
  /**
   * An account with `posts` posts of `perPost` comments each, collected once, then read again
   * with every post due (posts that young are read every 15 minutes), the network as `change`
   * leaves it (unchanged without). Returns the statements of that last read and its outcome.
   */
  async function readAgain(posts: number, perPost: number, change?: (comments: NetworkComment[], postedId: string) => NetworkComment[]) {
    const start = new Date(Date.now() - 3 * HOUR);
    const account = await liveAccount();
    await publishedPosts(account, posts, start);
    const network = scriptedNetwork(perPost, new Date(start.getTime() + MINUTE));
    const at = (minutes: number) => new Date(start.getTime() + 2 * HOUR + minutes * MINUTE);
    const first = await collectConnectionComments(account.id, { client: network, now: at(0) });
    expect(first).toMatchObject({ ok: true, posts });
    // The account's replies to comments read in the same pass are marked answered at the next read
    // (the first looks their parents up among stored items only): settled here, before counting.
    await collectConnectionComments(account.id, { client: network, now: at(16) });
    // The first read's outbox kick (fire and forget) is done before counting starts.
    await kickOutboxDrain();
    const client: CommentsClient = change
      ? {
          source: network.source,
          readComments: async (c, post, ctx) => {
            const read = await network.readComments(c, post, ctx);
            return read.ok ? { ...read, comments: change(read.comments, post.postedId) } : read;
          },
        }
      : network;
    let result: CollectCommentsResult | undefined;
    const statements = await statementsOf(async () => {
      result = await collectConnectionComments(account.id, { client, now: at(32) });
      // The kick of new comments, awaited so that it falls inside the count every time.
      if (result.inserted) await kickOutboxDrain();
    });
    return { statements, result: result!, items: await db.inboxItem.count({ where: { connectionId: account.id } }) };
  }

  it('reading 40 due posts with nothing new costs the same statements as reading 2: three reads and one small transaction', async () => {
    const small = await readAgain(2, 3);
    const large = await readAgain(40, 25);
    expect(small.result).toMatchObject({ ok: true, posts: 2, inserted: 0, updated: 0, deleted: 0 });
    expect(large.result).toMatchObject({ ok: true, posts: 40, inserted: 0, updated: 0, deleted: 0 });
    expect(large.items).toBeGreaterThan(100 * small.items);
    expect(large.statements.map(shape)).toEqual(small.statements.map(shape));
    // The account, its due posts, what is stored under them; the posts' and the account's checked times.
    expect(large.statements).toHaveLength(7);
    expect(large.statements.filter((s) => /^(SELECT|BEGIN|COMMIT)\b/.test(s))).toHaveLength(5);
    expect(large.statements.filter((s) => s.startsWith('UPDATE'))).toEqual([
      expect.stringMatching(/^UPDATE "PostTarget" SET "commentsCheckedAt"/),
      expect.stringMatching(/^UPDATE "Connection" SET "commentsCollectedAt"/),
    ]);
    expect(large.statements.some((s) => s.includes('INSERT') || s.includes('"InboxItem" SET'))).toBe(false);
  });

  it('edits, deletions and new comments under 2 posts or under 40 cost the same statements', async () => {
    // Under every post: the first comment edited, the second deleted, one new comment and one new reply.
    const change = (comments: NetworkComment[], postedId: string): NetworkComment[] => {
      const [edited, , ...rest] = comments;
      const at = new Date();
      const fresh = { authorId: 'new', authorName: 'New person', authorHandle: '@new', permalink: null, createdAt: at, fromAccount: false };
      return [
        { ...edited!, text: `${edited!.text} (edited)` },
        ...rest,
        { ...fresh, id: `${postedId}-new`, parentId: null, text: 'Just found you!' },
        { ...fresh, id: `${postedId}-new-r`, parentId: edited!.id, text: 'Me too' },
      ];
    };
    const small = await readAgain(2, 3, change);
    const large = await readAgain(40, 25, change);
    expect(small.result).toMatchObject({ ok: true, posts: 2, inserted: 4, updated: 2, deleted: 2 });
    expect(large.result).toMatchObject({ ok: true, posts: 40, inserted: 80, updated: 40, deleted: 40 });
    expect(large.statements.map(shape)).toEqual(small.statements.map(shape));
    // One statement writes the new items with their events; one UPDATE for the edits, one for the deletions.
    expect(large.statements.filter((s) => s.includes('INSERT INTO "InboxItem"') && s.includes('INSERT INTO "OutboxEvent"'))).toHaveLength(1);
    expect(large.statements.filter((s) => s.startsWith('UPDATE "InboxItem"'))).toHaveLength(2);
    // The three reads, the transaction of eight, and the outbox kicks (the collection's and the one awaited here).
    expect(large.statements.length).toBeLessThanOrEqual(13);
  });
});

describe('what the sweep costs', () => {
  /** `accounts` accounts with 3 posts each, due at `now`; every post before them is marked read at `now`. */
  async function dueAccounts(accounts: number, now: Date) {
    await db.$executeRaw`UPDATE "PostTarget" SET "commentsCheckedAt" = ${now}`;
    const workspace = await createWorkspace();
    for (let i = 0; i < accounts; i++) await publishedPosts(await liveAccount(workspace.id), 3, new Date(now.getTime() - 5 * HOUR));
  }

  it('finds 50 due accounts and queues their collections in the same statements as 5', async () => {
    const now = new Date();
    await dueAccounts(5, now);
    let few = { connections: 0 };
    const small = await statementsOf(async () => (few = await sweepDueComments(now)));
    await dueAccounts(50, now);
    let many = { connections: 0 };
    const large = await statementsOf(async () => (many = await sweepDueComments(now)));
    expect(few.connections).toBe(5);
    expect(many.connections).toBe(50);
    expect(large.map(shape)).toEqual(small.map(shape));
    // The due accounts in one statement; their jobs queued in one.
    expect(large.filter((s) => s.includes('FROM "PostTarget"'))).toHaveLength(1);
    expect(large.filter((s) => s.includes('add_jobs'))).toHaveLength(1);
    expect(large.length).toBeLessThanOrEqual(3);
    const queued = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE key LIKE 'inbox-collect:%'`;
    expect(queued[0]!.n).toBe(55);
  });
});
