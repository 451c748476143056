// Reddit reconcile: an interrupted publish is settled by reading the account's newest submissions
// and matching them on the subreddit, the title and the time. Reddit has no idempotency key for
// /api/submit, so asking is the only way to know.
//
// Sources:
//   https://www.reddit.com/dev/api#GET_user_{username}_{where} (where = submitted)
//     GET /user/<username>/submitted?sort=new&limit=<1..100>&raw_json=1 (scope history)
//     → { kind: "Listing", data: { after, before, children: [{ kind: "t3", data }] } }, newest first
//   https://www.reddit.com/dev/api#listings (limit: the maximum number of items, up to 100; after:
//     the fullname the next page starts after, null on the last one)
//   https://github.com/reddit-archive/reddit/wiki/JSON (t3: name, title, subreddit, created_utc in
//     epoch seconds, permalink)
//   https://github.com/reddit-archive/reddit/wiki/OAuth2 (refresh; 401 for a refused token)
//   https://github.com/reddit-archive/reddit/wiki/API (rate limits: X-Ratelimit-Reset)
//
// The post recorded is what the publisher records: its fullname (t3_…) and its permalink. A video
// post is listed only once Reddit has processed the video (the publisher polls for it for that
// reason), so a video attempt not found is unknown rather than absent.
// The reference lists /user/{username}/{where} under the `history` scope, which the connect flow
// does not ask for (server/connect/oauth/providers/reddit.ts): where Reddit refuses the listing
// for it (403), the answer is unknown with Reddit's words.
import { apiEndpoint, jsonAt, jsonString } from '../http';
import { mediaItems } from '../media';
import { TokenExpiredError } from '../publisher';
import { matchesIntent, RECENT_POSTS_TO_READ, type AttemptIntent, type Reconciled, type Reconciler } from '../reconcile';
import { withAccessToken } from '../token-refresh';
import { REDDIT_DEFAULT_BASE_URL, redditClient } from './reddit-api';
import { permalinkOf, redditRefresher, usernameOf, type RedditOptions } from './reddit-publisher';

/** Clocks differ: a post written up to a minute before the attempt began may still be its own. */
const CLOCK_SKEW_MS = 60_000;

interface Submission {
  name: string;
  title: string;
  subreddit: string;
  createdAt: Date | null;
  permalink: string | null;
}

export function createRedditReconciler(options: RedditOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent, { tokens }): Promise<Reconciled> {
      const subreddit = settingOf(intent, 'subreddit')?.replace(/^r\//, '');
      const title = settingOf(intent, 'title');
      if (!subreddit || !title) return { outcome: 'unknown', evidence: 'The attempt recorded no subreddit or title to look for on Reddit' };
      const username = usernameOf(connection);
      if (!username) return { outcome: 'unknown', evidence: 'No Reddit username is stored for this account: its submissions cannot be listed' };
      try {
        const { fetch, baseUrl } = apiEndpoint(options, 'REDDIT_API_BASE_URL', REDDIT_DEFAULT_BASE_URL);
        return await withAccessToken(connection, redditRefresher(fetch, options), tokens, async (token) => {
          const listing = await redditClient(fetch, baseUrl, token, options.timeoutMs).get(
            `/user/${encodeURIComponent(username)}/submitted?sort=new&limit=${RECENT_POSTS_TO_READ}&raw_json=1`,
          );
          const children = jsonAt(listing.json, 'data', 'children');
          const submissions = (Array.isArray(children) ? children : []).map((child) => submissionOf(jsonAt(child, 'data'))).filter((s) => s !== null);
          const oldest = submissions.at(-1)?.createdAt;
          const complete = !jsonString(listing.json, 'data', 'after') || (oldest != null && oldest.getTime() < intent.startedAt.getTime() - CLOCK_SKEW_MS);
          return settle(intent, { subreddit, title }, submissions, complete);
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return {
          outcome: 'unknown',
          evidence:
            error instanceof TokenExpiredError
              ? `Reddit refused the account’s token (${message}); reconnect the account, then settle this post`
              : `Reddit could not be asked for the account’s submissions: ${message}`,
        };
      }
    },
  };
}

function settle(intent: AttemptIntent, sent: { subreddit: string; title: string }, submissions: Submission[], complete: boolean): Reconciled {
  const where = `r/${sent.subreddit}`;
  const matches = submissions.filter(
    (s) =>
      s.subreddit.toLowerCase() === sent.subreddit.toLowerCase() &&
      matchesIntent({ content: sent.title, startedAt: intent.startedAt }, { text: s.title, createdAt: s.createdAt }),
  );
  if (matches.length > 1) {
    return {
      outcome: 'unknown',
      evidence: `Reddit has ${matches.length} posts titled “${sent.title}” in ${where} since the attempt began (${matches.map((s) => s.name).join(', ')}): Herald cannot tell which one this post is`,
    };
  }
  const [post] = matches;
  if (post) {
    return {
      outcome: 'found',
      result: { postedId: post.name, permalink: permalinkOf(post.permalink ? `https://www.reddit.com${post.permalink}` : null, post.name) },
      evidence: `Reddit post ${post.name} in ${where}, created ${post.createdAt?.toISOString() ?? 'at an unstated time'}, has the title sent (read among the account’s ${submissions.length} newest submissions)`,
    };
  }
  if (!complete) {
    return {
      outcome: 'unknown',
      evidence: `None of the account’s ${submissions.length} newest submissions is titled “${sent.title}” in ${where}, but all were written after the attempt began: the post may be among older ones Herald did not read`,
    };
  }
  if (mediaItems({ content: intent.content, mediaUrls: [...intent.mediaUrls], settings: {} }).some((m) => m.kind === 'video')) {
    return {
      outcome: 'unknown',
      evidence: `No submission titled “${sent.title}” in ${where} since the attempt began, but Reddit lists a video post only once it has processed the video`,
    };
  }
  return { outcome: 'absent', evidence: `None of the account’s submissions since the attempt began is titled “${sent.title}” in ${where}` };
}

function submissionOf(data: unknown): Submission | null {
  const name = jsonString(data, 'name');
  const title = jsonString(data, 'title');
  if (!name || title === undefined) return null;
  const created = Number(jsonAt(data, 'created_utc'));
  return {
    name,
    title,
    subreddit: jsonString(data, 'subreddit') ?? '',
    createdAt: Number.isFinite(created) && created > 0 ? new Date(created * 1000) : null,
    permalink: jsonString(data, 'permalink') ?? null,
  };
}

function settingOf(intent: AttemptIntent, key: string): string | undefined {
  const value = intent.settings[key];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}
