// Sandbox comments: the conversations a demo account's posts bring in, so the inbox is alive
// without a network. Every post gets its own few comments, the same for the same post, each
// arriving at its own time after publishing: questions, praise, spam, a reply thread between
// two people, and one comment its author edits a day later. A demo account offers exactly the
// actions its real network offers (the catalogue's `comments`): a demo TikTok account has no
// comments to read, a demo Mastodon account cannot hide one.
//
// The sandbox keeps nothing: a reply sent to it gets an id and Herald's own page of the demo
// post as its permalink (never the real network's address), but reading the post again does
// not return it, so its list is never complete (a reply from Herald is never taken as deleted).
import { createHash } from 'node:crypto';
import type { Platform } from '@/server/shared/platforms';
import { catalogueEntry } from '../catalogue';
import type { CommentsClient, NetworkComment } from '../comments';
import { PlatformError, TokenExpiredError } from '../publisher';
import { sandboxPermalink } from './sandbox-publisher';

const MINUTE = 60_000;

interface Voice {
  key: string;
  name: string;
  handle: string;
}

const VOICES: Voice[] = [
  { key: 'maya', name: 'Maya Chen', handle: 'mayachen' },
  { key: 'tom', name: 'Tom Okafor', handle: 'tomokafor' },
  { key: 'lena', name: 'Lena Fischer', handle: 'lena.fischer' },
  { key: 'promo', name: 'Crypto Gains 247', handle: 'cryptogains247' },
  { key: 'sam', name: 'Sam Rivera', handle: 'samrivera' },
  { key: 'priya', name: 'Priya Nair', handle: 'priyanair' },
];

interface Script {
  key: string;
  voice: string;
  minutes: number;
  text: string;
  /** The comment (by key) it answers. */
  parent?: string;
  /** Edited this many minutes after publishing, to `editedText`. */
  editedMinutes?: number;
  editedText?: string;
  /** Always present (every post gets a question); the others appear for some posts only. */
  always?: boolean;
}

const SCRIPT: Script[] = [
  { key: 'ship', voice: 'maya', minutes: 7, text: 'Do you ship to Canada? Would love to order a bag for my sister.', always: true },
  { key: 'love', voice: 'tom', minutes: 22, text: 'This looks amazing 😍' },
  { key: 'spam', voice: 'promo', minutes: 41, text: 'Earn $500 a day from home!! DM me to learn how 💰💰💰' },
  { key: 'hours', voice: 'lena', minutes: 125, text: 'What time do you open on Sundays?' },
  { key: 'hours-reply', voice: 'sam', minutes: 140, parent: 'hours', text: 'I think 9am? I was there last week.' },
  { key: 'hours-reply-2', voice: 'lena', minutes: 152, parent: 'hours-reply', text: 'Thanks Sam! Hoping they confirm 🙏' },
  {
    key: 'oat',
    voice: 'priya',
    minutes: 380,
    text: 'Is the oat milk option extra?',
    editedMinutes: 420,
    editedText: 'Is the oat milk option extra? And do you have almond?',
  },
  { key: 'late', voice: 'tom', minutes: 26 * 60, text: 'Shared this with my team, thanks for posting.' },
];

/** A number in [0, 1) from the post and a salt. */
function unit(postedId: string, salt: string): number {
  return createHash('sha256').update(`${postedId}|${salt}`).digest().readUInt32BE(0) / 2 ** 32;
}

const commentId = (postedId: string, key: string) => `sbx-c-${createHash('sha256').update(`${postedId}|${key}`).digest('hex').slice(0, 16)}`;

function handleOf(platform: Platform, handle: string): string {
  if (platform === 'reddit') return `u/${handle}`;
  if (platform === 'linkedin' || platform === 'facebook' || platform === 'youtube') return handle;
  return `@${handle}`;
}

/** Which comments of the script a post gets: the question always, the others for about two posts in three. */
function scriptOf(postedId: string): Script[] {
  const kept = new Set(SCRIPT.filter((s) => s.always || unit(postedId, s.key) < 0.67).map((s) => s.key));
  // A reply comes with what it answers.
  return SCRIPT.filter((s) => kept.has(s.key) && (!s.parent || kept.has(s.parent)));
}

/** The demo comments under one post as of `now`. */
export function sandboxComments(platform: Platform, postedId: string, publishedAt: Date, now: Date): NetworkComment[] {
  const out: NetworkComment[] = [];
  const permalink = sandboxPermalink(platform, postedId);
  for (const s of scriptOf(postedId)) {
    const at = new Date(publishedAt.getTime() + s.minutes * MINUTE);
    if (at > now) continue;
    const voice = VOICES.find((v) => v.key === s.voice)!;
    const edited = s.editedMinutes !== undefined && new Date(publishedAt.getTime() + s.editedMinutes * MINUTE) <= now;
    const id = commentId(postedId, s.key);
    out.push({
      id,
      parentId: s.parent ? commentId(postedId, s.parent) : null,
      authorId: `sbx-user-${voice.key}`,
      authorName: voice.name,
      authorHandle: handleOf(platform, voice.handle),
      text: edited ? s.editedText! : s.text,
      createdAt: at,
      editedAt: edited ? new Date(publishedAt.getTime() + s.editedMinutes! * MINUTE) : null,
      permalink: permalink ? `${permalink}#${id}` : null,
      fromAccount: false,
    });
  }
  return out;
}

function failIfExpired(connection: { sandboxBehavior: string | null }): void {
  if (connection.sandboxBehavior === 'expired') throw new TokenExpiredError('Error validating access token: Session has expired (code 190, subcode 463)');
}

/** The sandbox client of one network: exactly the actions its real network offers. */
export function sandboxCommentsClient(platform: Platform): CommentsClient | null {
  const offered = catalogueEntry(platform).comments;
  if (!('call' in offered.read)) return null;
  const client: CommentsClient = {
    source: 'sandbox',
    async readComments(connection, post, { now }) {
      failIfExpired(connection);
      return { ok: true, comments: sandboxComments(connection.platform, post.postedId, post.publishedAt, now), complete: false };
    },
  };
  const act = async (connection: { sandboxBehavior: string | null }) => {
    failIfExpired(connection);
    if (connection.sandboxBehavior === 'rejects_posts')
      throw new PlatformError('(#200) The demo account refuses every action (its behaviour is "rejects posts")', { status: 403 });
  };
  if ('call' in offered.reply) {
    client.reply = async (connection, target, text, ctx) => {
      await act(connection);
      const id = `sbx-r-${createHash('sha256')
        .update(`${target.postedId}|${target.commentId ?? ''}|${ctx.idempotencyKey ?? text}`)
        .digest('hex')
        .slice(0, 16)}`;
      const permalink = sandboxPermalink(connection.platform, target.postedId);
      return { id, permalink: permalink ? `${permalink}#${id}` : null };
    };
  }
  if ('call' in offered.hide) client.hide = async (connection) => act(connection);
  if ('call' in offered.delete) client.delete = async (connection) => act(connection);
  if ('call' in offered.like) client.like = async (connection) => act(connection);
  return client;
}
