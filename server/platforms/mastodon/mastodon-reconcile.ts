// Mastodon reconcile: an interrupted publish is settled by reading the account's own recent
// statuses on its server and matching them on the text sent and the time.
//
// A retry is already safe for an hour: the publisher sends Idempotency-Key = the target's id, and
// the server answers a repeat within that hour with the status it created. This reader settles
// an attempt whatever its age, without sending anything.
//
// Sources:
//   https://docs.joinmastodon.org/methods/accounts/#statuses
//     GET /api/v1/accounts/:id/statuses?limit=<1..40>&max_id=<id>&exclude_reblogs=true
//     → [Status], newest first; "limit: Maximum number of results to return. Defaults to 20
//     statuses. Max 40 statuses"; user token + read:statuses for the private statuses too.
//   https://docs.joinmastodon.org/entities/Status/ (id, created_at, content as HTML, url)
//   https://docs.joinmastodon.org/methods/statuses/#create (Idempotency-Key, kept one hour)
//   https://docs.joinmastodon.org/api/rate-limits/ (429, X-RateLimit-Reset)
//
// The account is its id on its own server (platformData.accountId; externalId is "<id>@<host>").
// The content is HTML: read as text, and a mention of another server's account, which Mastodon
// shows as "@name", is compared without its "@server" on both sides.
import { defaultFetch, type AdapterOptions } from '../http';
import { TokenExpiredError } from '../publisher';
import { matchesIntent, RECENT_POSTS_TO_READ, type AttemptIntent, type Reconciled, type Reconciler } from '../reconcile';
import { withAccessToken } from '../token-refresh';
import { mastodonClient } from './mastodon-api';
import { accountIdOf, plainText } from './mastodon-comments';
import { serverOf } from './mastodon-publisher';

/** The most statuses one page holds. */
const PAGE_LIMIT = 40;

interface Status {
  id?: string;
  created_at?: string;
  content?: string;
  url?: string | null;
}

export function createMastodonReconciler(options: AdapterOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent, { tokens }): Promise<Reconciled> {
      try {
        // Each account lives on its own server: options.baseUrl (tests) stands in for it.
        const { origin } = serverOf(connection.platformData ?? {}, options.baseUrl);
        const accountId = accountIdOf(connection);
        return await withAccessToken(connection, null, tokens, async (token) => {
          const api = mastodonClient(options.fetch ?? defaultFetch(), origin, token, options.timeoutMs);
          const read: Status[] = [];
          let complete = false;
          while (read.length < RECENT_POSTS_TO_READ) {
            const limit = Math.min(PAGE_LIMIT, RECENT_POSTS_TO_READ - read.length);
            const query = new URLSearchParams({ limit: String(limit), exclude_reblogs: 'true' });
            const last = read.at(-1)?.id;
            if (last) query.set('max_id', last);
            const response = await api.call('GET', `/api/v1/accounts/${encodeURIComponent(accountId)}/statuses?${query}`);
            const page = (Array.isArray(response.json) ? (response.json as Status[]) : []).filter((s) => s.id);
            read.push(...page);
            // The list ends, or reaches statuses written before the attempt: every candidate is read.
            if (page.length < limit || before(page.at(-1)!, intent)) {
              complete = true;
              break;
            }
          }
          return settle(intent, read, complete);
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return {
          outcome: 'unknown',
          evidence:
            error instanceof TokenExpiredError
              ? `Mastodon refused the account’s token (${message}); reconnect the account, then settle this post`
              : `Mastodon could not be asked for the account’s recent statuses: ${message}`,
        };
      }
    },
  };
}

function settle(intent: AttemptIntent, read: Status[], complete: boolean): Reconciled {
  const sent = { content: comparable(intent.content), startedAt: intent.startedAt };
  const matches = read.filter((s) => matchesIntent(sent, { text: comparable(plainText(s.content ?? '')), createdAt: dateOf(s.created_at) }));
  if (matches.length > 1) {
    return {
      outcome: 'unknown',
      evidence: `Mastodon has ${matches.length} statuses with the text sent since the attempt began (${matches.map((s) => s.id).join(', ')}): Herald cannot tell which one this post is`,
    };
  }
  const [status] = matches;
  if (status) {
    return {
      outcome: 'found',
      result: { postedId: status.id!, permalink: status.url ?? null },
      evidence: `Mastodon status ${status.id}, created ${status.created_at}, has the text sent (read among the account’s ${read.length} most recent statuses)`,
    };
  }
  if (!complete) {
    return {
      outcome: 'unknown',
      evidence: `None of the account’s ${read.length} most recent statuses has the text sent, but all were written after the attempt began: the post may be among older ones Herald did not read`,
    };
  }
  return {
    outcome: 'absent',
    evidence: `None of the account’s statuses since the attempt began (${read.length} most recent read) has the text sent`,
  };
}

/** Whether a status was written before the attempt could have written it. */
function before(status: Status, intent: Pick<AttemptIntent, 'startedAt'>): boolean {
  const created = dateOf(status.created_at);
  return created !== null && created.getTime() < intent.startedAt.getTime() - 60_000;
}

function dateOf(value: string | undefined): Date | null {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/** "@alice@other.example" as Mastodon shows a mention of another server's account: "@alice". */
function comparable(text: string): string {
  return text.replace(/(^|[^\w@])(@\w+)@[\w-]+(?:\.[\w-]+)+/g, '$1$2');
}
