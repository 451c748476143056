// herald posts create | list | get | publish | cancel
import type { Herald, Schemas } from '../../sdk/src/index.js';
import { list, str, type Command, type Context } from './command.js';
import { usage } from './errors.js';
import { cut, line, printJson, table } from './output.js';

type Post = Schemas['Post'];
type PostRow = Schemas['PostListRow'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Connection ids as given, or looked up by handle, display name or platform:handle. */
async function resolveAccounts(herald: Herald, accounts: string[]): Promise<string[]> {
  if (accounts.every((a) => UUID.test(a))) return accounts;
  const { data: connections } = await herald.connections.list();
  return accounts.map((account) => {
    if (UUID.test(account)) return account;
    const [platform, name] = account.includes(':') ? account.split(/:(.*)/s) : [undefined, account];
    const wanted = name!.replace(/^@/, '').toLowerCase();
    const found = connections.filter(
      (c) => (!platform || c.platform === platform) && (c.accountName.replace(/^@/, '').toLowerCase() === wanted || c.displayName.toLowerCase() === wanted),
    );
    if (found.length === 1) return found[0]!.id;
    throw usage(
      found.length
        ? `--account ${account} names ${found.length} accounts: write platform:name or the connection id`
        : `No account ${account} in this workspace`,
    );
  });
}

const oneId = (ctx: Context, verb: string) => {
  const [id, ...rest] = ctx.args;
  if (!id || rest.length) throw usage(`herald posts ${verb} takes one post id`);
  return id;
};

const when = (post: PostRow) => post.scheduledAt ?? '';

function printPost(ctx: Context, post: Post) {
  const rows: [string, string][] = [
    ['id', post.id],
    ['status', post.status],
    ['scheduledAt', post.scheduledAt ?? '(draft)'],
    ['content', cut(post.content, 100)],
  ];
  if (post.parts.length) rows.push(['parts', String(post.parts.length)]);
  if (post.firstComment) rows.push(['firstComment', cut(post.firstComment, 80)]);
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) line(ctx.io.stdout, `${k.padEnd(width)}  ${v}`);
  if (post.targets?.length) {
    line(ctx.io.stdout);
    line(
      ctx.io.stdout,
      table(
        ['target', 'platform', 'status', 'permalink / error'],
        post.targets.map((t) => [t.id, t.platform, t.status, t.permalink ?? t.error ?? '']),
      ),
    );
  }
}

function printWarnings(ctx: Context, warnings: { code: string; message: string }[] | undefined) {
  if (ctx.json) return;
  for (const w of warnings ?? []) line(ctx.io.stderr, `warning: ${w.code}: ${w.message}`);
}

export const postsCreate: Command = {
  words: ['posts', 'create'],
  summary: 'Create a post (a draft, or scheduled with --at)',
  options: {
    text: { type: 'string', value: 'text', description: 'The text (required)' },
    account: { type: 'string', multiple: true, value: 'id|name', description: 'An account: connection id, handle or platform:handle' },
    at: { type: 'string', value: 'time', description: 'When to publish, ISO 8601 with offset (absent: a draft)' },
    media: { type: 'string', multiple: true, value: 'id', description: 'A ready media asset id; also comma-separated' },
    part: { type: 'string', multiple: true, value: 'text', description: 'A later part of a thread, in order' },
    'first-comment': { type: 'string', value: 'text', description: 'Posted as a comment under the post once it lands' },
  },
  async run(ctx) {
    const text = str(ctx.values, 'text');
    const accounts = list(ctx.values, 'account');
    if (!text) throw usage('--text is required');
    if (!accounts.length) throw usage('at least one --account is required');
    if (ctx.args.length) throw usage(`unexpected argument ${ctx.args[0]}`);
    const { herald } = ctx.client();
    const mediaIds = list(ctx.values, 'media').flatMap((m) =>
      m
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
    const parts = list(ctx.values, 'part').map((content) => ({ content }));
    const at = str(ctx.values, 'at');
    const firstComment = str(ctx.values, 'first-comment');
    const body = await herald.posts.create({
      content: text,
      connectionIds: await resolveAccounts(herald, accounts),
      ...(at ? { scheduledAt: at } : {}),
      ...(mediaIds.length ? { mediaIds } : {}),
      ...(parts.length ? { parts } : {}),
      ...(firstComment ? { firstComment } : {}),
    });
    if (ctx.json) return void printJson(ctx.io, body);
    printWarnings(ctx, body.warnings);
    printPost(ctx, body.data);
  },
};

export const postsList: Command = {
  words: ['posts', 'list'],
  summary: 'List posts, newest first',
  options: {
    status: { type: 'string', value: 'status', description: 'Only posts in this status (draft, scheduled, publishing, published, failed, cancelled, …)' },
    limit: { type: 'string', value: 'n', description: 'Posts per page, 1–200 (default 50)' },
    all: { type: 'boolean', description: 'Every post, page after page (default: the first page)' },
  },
  async run(ctx) {
    if (ctx.args.length) throw usage(`unexpected argument ${ctx.args[0]}`);
    const limitText = str(ctx.values, 'limit');
    const limit = limitText === undefined ? undefined : Number(limitText);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 200)) throw usage('--limit takes a whole number from 1 to 200');
    const status = str(ctx.values, 'status') as NonNullable<Parameters<Herald['posts']['list']>[0]>['status'];
    const query = { ...(status ? { status } : {}), ...(limit ? { limit } : {}) };
    const { herald } = ctx.client();
    let posts: PostRow[] = [];
    let total: number | undefined;
    if (ctx.values.all) {
      for await (const post of herald.posts.list(query)) posts.push(post);
    } else {
      const page = await herald.request('GET', '/posts', { query });
      posts = page.data;
      total = page.total;
    }
    if (ctx.json) return void printJson(ctx.io, posts);
    if (!posts.length) return void line(ctx.io.stdout, 'No posts.');
    line(
      ctx.io.stdout,
      table(
        ['id', 'status', 'scheduled', 'content'],
        posts.map((p) => [p.id, p.status, when(p), cut(p.content, 50)]),
      ),
    );
    if (total !== undefined && total > posts.length) line(ctx.io.stderr, `${posts.length} of ${total} posts: --all lists every one.`);
  },
};

export const postsGet: Command = {
  words: ['posts', 'get'],
  summary: 'Show a post and its targets',
  args: ['<id>'],
  options: {},
  async run(ctx) {
    const id = oneId(ctx, 'get');
    const { data } = await ctx.client().herald.posts.get(id);
    if (ctx.json) return void printJson(ctx.io, data);
    printPost(ctx, data);
  },
};

export const postsPublish: Command = {
  words: ['posts', 'publish'],
  summary: 'Publish a post now',
  args: ['<id>'],
  options: {},
  async run(ctx) {
    const id = oneId(ctx, 'publish');
    const body = await ctx.client().herald.posts.publish(id);
    if (ctx.json) return void printJson(ctx.io, body);
    printWarnings(ctx, body.warnings);
    printPost(ctx, body.data);
  },
};

export const postsCancel: Command = {
  words: ['posts', 'cancel'],
  summary: 'Cancel a draft or scheduled post',
  args: ['<id>'],
  options: {},
  async run(ctx) {
    const id = oneId(ctx, 'cancel');
    const body = await ctx.client().herald.posts.cancel(id);
    if (ctx.json) return void printJson(ctx.io, body);
    line(ctx.io.stdout, `Cancelled ${id}.`);
  },
};
