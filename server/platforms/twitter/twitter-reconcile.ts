// X reconcile: an interrupted publish is settled by reading the account's own posts written since
// the attempt began and matching them on the text sent. X has no idempotency key for POST
// /2/tweets, so asking is the only way to know.
//
// Sources:
//   https://docs.x.com/x-api/posts/timelines/introduction (the user Posts timeline: the 3,200 most
//     recent posts, newest first; start_time, exclude, pagination)
//   https://docs.x.com/x-api/posts/timelines/integrate (tweet.fields=created_at; only id, text and
//     edit_history_tweet_ids by default)
//     GET /2/users/:id/tweets?max_results=<5..100>&start_time=<YYYY-MM-DDTHH:mm:ssZ>&exclude=retweets
//       &tweet.fields=created_at,edit_history_tweet_ids
//     → { data?: [{ id, text, created_at, edit_history_tweet_ids }], meta: { result_count,
//       newest_id?, oldest_id?, next_token? }, errors? }; no data when nothing matches.
//   https://docs.x.com/x-api/fundamentals/edit-posts (the latest version is returned; its
//     edit_history_tweet_ids lists every version, the first one first)
//   https://docs.x.com/fundamentals/rate-limits (429 with x-rate-limit-reset)
//
// The id recorded is the post's first version, the id POST /2/tweets answered. X returns the
// text with &, < and > as HTML entities, and links as t.co addresses (normaliseText drops links).
import { apiEndpoint } from '../http';
import { TokenExpiredError } from '../publisher';
import { CLOCK_SLACK_MS, matchesIntent, RECENT_POSTS_TO_READ, type AttemptIntent, type Reconciled, type Reconciler } from '../reconcile';
import { withAccessToken } from '../token-refresh';
import { publishedPost, xRefresher, type TwitterOptions } from './twitter-publisher';
import { X_DEFAULT_BASE_URL, xClient, xRetryAfter } from './x-api';

interface XPost {
  id?: string;
  text?: string;
  created_at?: string;
  edit_history_tweet_ids?: string[];
}

interface Timeline {
  data?: XPost[];
  meta?: { result_count?: number; next_token?: string };
  errors?: { title?: string; detail?: string }[];
}

export function createTwitterReconciler(options: TwitterOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent, { tokens }): Promise<Reconciled> {
      try {
        const { fetch, baseUrl } = apiEndpoint(options, 'X_API_BASE_URL', X_DEFAULT_BASE_URL);
        return await withAccessToken(connection, xRefresher(fetch, baseUrl, options), tokens, async (token) => {
          const query = new URLSearchParams({
            max_results: String(RECENT_POSTS_TO_READ),
            start_time: secondsIso(new Date(intent.startedAt.getTime() - CLOCK_SLACK_MS)),
            exclude: 'retweets',
            'tweet.fields': 'created_at,edit_history_tweet_ids',
          });
          const response = await xClient(fetch, baseUrl, token, options.timeoutMs).call(
            `/2/users/${encodeURIComponent(connection.externalId)}/tweets?${query}`,
            { retryAfter: xRetryAfter },
          );
          const timeline = (response.json ?? {}) as Timeline;
          if (!timeline.data && timeline.errors?.length) {
            const [error] = timeline.errors;
            return { outcome: 'unknown', evidence: `X did not return the account’s posts: ${error?.detail ?? error?.title ?? 'an error without words'}` };
          }
          const posts = (timeline.data ?? []).filter((p) => p.id);
          return settle(connection, intent, posts, Boolean(timeline.meta?.next_token));
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return {
          outcome: 'unknown',
          evidence:
            error instanceof TokenExpiredError
              ? `X refused the account’s token (${message}); reconnect the account, then settle this post`
              : `X could not be asked for the account’s recent posts: ${message}`,
        };
      }
    },
  };
}

function settle(connection: { accountName: string }, intent: AttemptIntent, posts: XPost[], more: boolean): Reconciled {
  const matches = posts.filter((p) => matchesIntent(intent, { text: unescapeText(p.text ?? ''), createdAt: dateOf(p.created_at) }));
  if (matches.length > 1) {
    return {
      outcome: 'unknown',
      evidence: `X has ${matches.length} posts with the text sent since the attempt began (${matches.map((p) => p.id).join(', ')}): Herald cannot tell which one this post is`,
    };
  }
  const [post] = matches;
  if (post) {
    const id = post.edit_history_tweet_ids?.[0] ?? post.id!;
    return {
      outcome: 'found',
      result: publishedPost(connection, id),
      evidence: `X post ${id}, created ${post.created_at}, has the text sent (read among the account’s ${posts.length} posts since the attempt began)`,
    };
  }
  if (more) {
    return {
      outcome: 'unknown',
      evidence: `None of the ${posts.length} posts Herald read has the text sent, but the account wrote more since the attempt began: the post may be among those not read`,
    };
  }
  return {
    outcome: 'absent',
    evidence: posts.length
      ? `None of the account’s ${posts.length} posts since the attempt began has the text sent`
      : 'The account has written no post on X since the attempt began',
  };
}

/** X's start_time takes whole seconds: YYYY-MM-DDTHH:mm:ssZ. */
const secondsIso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The text as it was sent: X returns &, < and > as HTML entities. */
const unescapeText = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

function dateOf(value: string | undefined): Date | null {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}
