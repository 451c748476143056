// A post's first comment: posted after the post on every network that lets Herald comment, with
// an outcome of its own; a refused comment never fails the post, and a retry posts only the
// comment; a comment cut off by a crash is looked for before it is sent again.
//
// The live cases run the networks' comments clients against the local HTTPS stand-in, from
// the documented shapes:
//   https://docs.x.com/x-api/posts/manage-tweets/introduction (POST /2/tweets, reply.in_reply_to_tweet_id)
//   https://docs.x.com/x-api/fundamentals/response-codes-and-errors (403 Client Forbidden)
//   https://docs.joinmastodon.org/methods/statuses/#context (GET /api/v1/statuses/:id/context)
//   https://docs.joinmastodon.org/methods/statuses/#create (POST /api/v1/statuses with Idempotency-Key)
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import type { LiveOverrides } from '@/server/platforms/testing/live-overrides';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { createSandboxConnection, createWorkspaceWithKey, uniq } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';

const live = vi.hoisted((): LiveOverrides => ({ platform: 'twitter', publisher: null, comments: new Map() }));
vi.mock('@/server/platforms/registry', (original) => import('@/server/platforms/testing/live-overrides').then((m) => m.registryWith(original, live)));
vi.mock('@/server/platforms/comments-clients', (original) =>
  import('@/server/platforms/testing/live-overrides').then((m) => m.commentsClientsWith(original, live)),
);
const { createTwitterPublisher } = await import('@/server/platforms/twitter/twitter-publisher');
const { createTwitterCommentsClient } = await import('@/server/platforms/twitter/twitter-comments');
const { createMastodonCommentsClient } = await import('@/server/platforms/mastodon/mastodon-comments');
const { deliverFirstComments } = await import('./first-comments');

const api = usePublicApi();
const platform = useFakePlatformApi();
const x = (name: string) => fixture(path.join(import.meta.dirname, '../../platforms/twitter'), name);
const mastodon = (name: string) => fixture(path.join(import.meta.dirname, '../../platforms/mastodon'), name);

beforeEach(() => {
  const options = { fetch: platform.fetch, baseUrl: platform.baseUrl, clientId: '' };
  live.publisher = createTwitterPublisher(options);
  live.comments!.set('twitter', createTwitterCommentsClient(options));
  live.comments!.set('mastodon', createMastodonCommentsClient({ fetch: platform.fetch, baseUrl: platform.baseUrl }));
});

async function liveConnection(workspaceId: string, platformId: 'twitter' | 'mastodon') {
  return db.connection.create({
    data: {
      workspaceId,
      platform: platformId,
      provider: 'live',
      externalId: platformId === 'twitter' ? '2244994945' : '14715@mastodon.example',
      accountName: platformId === 'twitter' ? uniq('heraldcoffee') : 'heraldcoffee@mastodon.example',
      displayName: 'Herald Coffee',
      accessToken: 'live-token',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
      platformData: platformId === 'mastodon' ? { instanceUrl: 'https://mastodon.example', accountId: '14715' } : {},
    },
  });
}

const targetOf = async (postId: string, connectionId: string) => db.postTarget.findFirstOrThrow({ where: { postId, connectionId } });

describe('first comments', () => {
  it('are posted after the post on each network that lets Herald comment, and on no other', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    const linkedin = await createSandboxConnection(workspace.id, { platform: 'linkedin' });
    const facebook = await createSandboxConnection(workspace.id, { platform: 'facebook' });
    const slack = await createSandboxConnection(workspace.id, { platform: 'slack' });
    const created = await api('POST', '/posts', {
      key: secret,
      body: {
        content: 'Our autumn menu is here.',
        connectionIds: [linkedin.id, facebook.id, slack.id],
        firstComment: 'Full menu: https://acme-coffee.example/menu',
        platformSettings: { facebook: { firstComment: 'On Facebook: the menu is pinned on our Page' } },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.firstComment).toBe('Full menu: https://acme-coffee.example/menu');
    // Nothing landed yet, so no first comment either.
    expect(created.body.data.targets.map((t: { firstComment: unknown }) => t.firstComment)).toEqual([null, null, null]);

    const published = await api('POST', `/posts/${created.body.data.id}/publish`, { key: secret });

    expect(published.body.data.status).toBe('published');
    const byConnection = new Map(published.body.data.targets.map((t: { connectionId: string }) => [t.connectionId, t]));
    expect(byConnection.get(linkedin.id)).toMatchObject({
      status: 'published',
      firstComment: { status: 'posted', commentId: expect.stringMatching(/^sbx-r-/), error: null },
    });
    expect(byConnection.get(facebook.id)).toMatchObject({ firstComment: { status: 'posted' } });
    // Slack lets Herald write no comment: nothing to post, nothing shown.
    expect(byConnection.get(slack.id)).toMatchObject({ status: 'published', firstComment: null });
    expect((await targetOf(created.body.data.id, slack.id)).firstCommentStatus).toBe('none');
  });

  it('are refused at writing when longer than a targeted network allows a comment, naming the field', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    const linkedin = await createSandboxConnection(workspace.id, { platform: 'linkedin' });
    const slack = await createSandboxConnection(workspace.id, { platform: 'slack' });
    const long = 'Menu! '.repeat(217).trim();

    const refused = await api('POST', '/posts', { key: secret, body: { content: 'Autumn', connectionIds: [linkedin.id], firstComment: long } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'CONTENT_TOO_LONG', field: 'firstComment' });
    expect(refused.body.error.message).toBe('A first comment on LinkedIn allows 1250 characters; this one counts 1301');

    // A network that takes no comment does not hold the post back.
    const slackOnly = await api('POST', '/posts', { key: secret, body: { content: 'Autumn', connectionIds: [slack.id], firstComment: long } });
    expect(slackOnly.status).toBe(201);

    // An edit is checked the same way.
    const draft = await api('POST', '/posts', { key: secret, body: { content: 'Autumn', connectionIds: [linkedin.id] } });
    const edited = await api('PATCH', `/posts/${draft.body.data.id}`, { key: secret, body: { firstComment: long } });
    expect(edited.body.error).toMatchObject({ code: 'CONTENT_TOO_LONG', field: 'firstComment' });
  });

  it('refused by the network leave the post published; the retry posts the comment only', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    const connection = await liveConnection(workspace.id, 'twitter');
    let replies = 0;
    platform.on('POST', '/2/tweets', (request) => {
      if (!request.json().reply) return { status: 201, json: x('tweet-created') };
      replies += 1;
      return replies === 1 ? { status: 403, json: x('error-client-forbidden') } : { status: 201, json: x('reply-created') };
    });
    const created = await api('POST', '/posts', {
      key: secret,
      body: { content: `Autumn menu ${uniq('x')}`, connectionIds: [connection.id], firstComment: 'Full menu: https://acme-coffee.example/menu' },
    });

    const published = await api('POST', `/posts/${created.body.data.id}/publish`, { key: secret });

    expect(published.body.data.status).toBe('published');
    const [target] = published.body.data.targets;
    expect(target).toMatchObject({ status: 'published', error: null, firstComment: { status: 'failed', commentId: null } });
    expect(target.firstComment!.error).toContain('developer App');
    const reply = platform.calls('POST', '/2/tweets').find((c) => c.json().reply)!;
    expect(reply.json()).toEqual({ text: 'Full menu: https://acme-coffee.example/menu', reply: { in_reply_to_tweet_id: target.postedId } });

    const retried = await api('POST', `/posts/${created.body.data.id}/retry`, { key: secret });

    expect(retried.status).toBe(201);
    expect(retried.body.data.status).toBe('published');
    expect(retried.body.data.targets[0]).toMatchObject({
      postedId: target.postedId,
      firstComment: { status: 'posted', commentId: '1945899999999999999', error: null },
    });
    const calls = platform.calls('POST', '/2/tweets');
    expect(calls.filter((c) => !c.json().reply)).toHaveLength(1);
    expect(calls.filter((c) => c.json().reply)).toHaveLength(2);
    expect((await targetOf(created.body.data.id, connection.id)).firstCommentAttempts).toBe(2);

    // Nothing failed any more: a retry has nothing to do.
    expect((await api('POST', `/posts/${created.body.data.id}/retry`, { key: secret })).body.error.code).toBe('POST_NOT_EDITABLE');
  });

  describe('cut off by a crash', () => {
    const STATUS = '113546730183612345';
    const TEXT = 'Full menu: https://acme-coffee.example/menu';

    /** A Mastodon post that landed, its first comment claimed by an owner that died a minute ago. */
    async function interrupted() {
      const { workspace, secret } = await createWorkspaceWithKey();
      const connection = await liveConnection(workspace.id, 'mastodon');
      const created = await api('POST', '/posts', { key: secret, body: { content: 'Autumn menu', connectionIds: [connection.id], firstComment: TEXT } });
      const post = await db.post.findUniqueOrThrow({ where: { id: created.body.data.id } });
      const target = await db.postTarget.update({
        where: { postId_connectionId: { postId: post.id, connectionId: connection.id } },
        data: {
          status: 'published',
          postedId: STATUS,
          publishedAt: new Date(Date.now() - 120_000),
          firstCommentStatus: 'posting',
          firstCommentAttempts: 1,
          firstCommentStartedAt: new Date(Date.now() - 60_000),
        },
      });
      return { post, target };
    }
    /** The status's context as Mastodon answers it, with Herald's own comment among the replies or not. */
    const context = (withOwn: boolean) => {
      const own = { ...mastodon('status-reply'), id: '113546900000000099', in_reply_to_id: STATUS, visibility: 'public', content: `<p>${TEXT}</p>` };
      const others = mastodon('context').descendants.map((d: Record<string, unknown>) => ({ ...d, in_reply_to_id: STATUS }));
      return { json: { ancestors: [], descendants: withOwn ? [...others, own] : others } };
    };

    it('found among the post’s comments: posted with its id, not sent again', async () => {
      const { post, target } = await interrupted();
      platform.on('GET', `/api/v1/statuses/${STATUS}/context`, context(true));

      await deliverFirstComments(post);

      expect(await db.postTarget.findUniqueOrThrow({ where: { id: target.id } })).toMatchObject({
        firstCommentStatus: 'posted',
        firstCommentId: '113546900000000099',
        firstCommentAttempts: 1,
      });
      expect(platform.calls('POST', '/api/v1/statuses')).toHaveLength(0);
    });

    it('absent from the complete list: sent now, once, with its idempotency key', async () => {
      const { post, target } = await interrupted();
      platform.on('GET', `/api/v1/statuses/${STATUS}/context`, context(false));
      platform.on('GET', `/api/v1/statuses/${STATUS}`, { json: { ...mastodon('status'), id: STATUS, visibility: 'public' } });
      platform.on('POST', '/api/v1/statuses', { json: { ...mastodon('status-reply'), id: '113546900000000100', visibility: 'public' } });

      await deliverFirstComments(post);

      const [sent] = platform.calls('POST', '/api/v1/statuses');
      expect(sent!.headers['idempotency-key']).toBe(`${target.id}:first-comment`);
      expect(await db.postTarget.findUniqueOrThrow({ where: { id: target.id } })).toMatchObject({
        firstCommentStatus: 'posted',
        firstCommentId: '113546900000000100',
        firstCommentAttempts: 2,
      });
      // Settled: a second pass finds nothing to do.
      await deliverFirstComments(post);
      expect(platform.calls('POST', '/api/v1/statuses')).toHaveLength(1);
    });

    it('left alone while its owner may still be calling (younger than the lease)', async () => {
      const { post, target } = await interrupted();
      await db.postTarget.update({ where: { id: target.id }, data: { firstCommentStatus: 'posting', firstCommentStartedAt: new Date() } });
      await deliverFirstComments(post);
      expect(platform.requests).toHaveLength(0);
      expect((await db.postTarget.findUniqueOrThrow({ where: { id: target.id } })).firstCommentStatus).toBe('posting');
    });
  });
});

describe('tracked links in a thread and its first comment', () => {
  it('go out shortened in every part and in the first comment, each link with the code the post’s links list shows', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    expect((await api('PATCH', '/settings', { key: secret, body: { trackLinks: true } })).status).toBe(200);
    const connection = await liveConnection(workspace.id, 'twitter');
    let next = 0;
    platform.on('POST', '/2/tweets', (request) => {
      next += 1;
      return { status: 201, json: { data: { id: `19200000000000000${next}`, text: request.json().text, edit_history_tweet_ids: [] } } };
    });
    const [menu, order, hours] = ['https://acme-coffee.example/menu', 'https://acme-coffee.example/order', 'https://acme-coffee.example/hours'];
    const opening = `Autumn menu ${uniq('x')}: ${menu}`;
    const created = await api('POST', '/posts', {
      key: secret,
      body: {
        content: opening,
        connectionIds: [connection.id],
        parts: [{ content: `Order ahead: ${order}` }, { content: 'See you Monday!' }],
        firstComment: `Hours: ${hours} (and the menu again: ${menu}).`,
      },
    });
    expect(created.status, created.text).toBe(201);
    const postId = created.body.data.id as string;
    const listed = await api('GET', `/posts/${postId}/links`, { key: secret });
    const links = listed.body.data as { url: string; shortUrl: string; destination: string }[];
    expect(links.map((l) => l.url).sort()).toEqual([hours, menu, order]);
    expect(links.every((l) => l.destination.includes('utm_source=twitter'))).toBe(true);
    const short = (url: string) => links.find((l) => l.url === url)!.shortUrl;

    const published = await api('POST', `/posts/${postId}/publish`, { key: secret });

    expect(published.body.data.status).toBe('published');
    expect(published.body.data.targets[0]).toMatchObject({ firstComment: { status: 'posted' } });
    const texts = platform.calls('POST', '/2/tweets').map((c) => (c.json() as { text: string }).text);
    expect(texts.sort()).toEqual(
      [
        `Autumn menu ${opening.split(' ')[2]} ${short(menu)}`,
        `Order ahead: ${short(order)}`,
        'See you Monday!',
        `Hours: ${short(hours)} (and the menu again: ${short(menu)}).`,
      ].sort(),
    );
    // What each later part sent is what a crash would ask X about.
    const parts = await db.postThreadPart.findMany({ where: { target: { postId } }, orderBy: { position: 'asc' } });
    expect(parts.map((p) => p.content)).toEqual([`Order ahead: ${short(order)}`, 'See you Monday!']);
    // The post keeps the text as written.
    expect(published.body.data.parts.map((p: { content: string }) => p.content)).toEqual([`Order ahead: ${order}`, 'See you Monday!']);
    expect(published.body.data.firstComment).toBe(`Hours: ${hours} (and the menu again: ${menu}).`);
  });
});
