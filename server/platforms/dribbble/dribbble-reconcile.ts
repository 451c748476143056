// Dribbble reconcile: settles a publish that was cut off by asking Dribbble for the user's newest
// shots (reconcile.ts). Read only.
//
// Source: https://developer.dribbble.com/v2/shots/#list-shots
//   GET /v2/user/shots?per_page=n → [{ id, title, description, published_at, html_url, … }],
//   newest first.
// Dribbble takes no idempotency key, so the shot is told by what the attempt sent: its title,
// published since the attempt began. A shot is created asynchronously and is not listed until
// Dribbble has processed it, so finding none soon after the attempt proves nothing: within
// PROCESSING_MS of the attempt it is unknown (a person looks), never absent (which would send
// the shot again).
import { apiEndpoint, jsonString, type AdapterOptions } from '../http';
import { normaliseText, RECENT_POSTS_TO_READ, settleFromRecentPosts, CLOCK_SLACK_MS, type Reconciler } from '../reconcile';
import { withAccessToken } from '../token-refresh';
import { DRIBBBLE_DEFAULT_BASE_URL, dribbbleClient } from './dribbble-api';
import { dribbbleShotUrl, shotText } from './dribbble-publisher';

/** How long after an attempt a shot may still be processing, and so unlisted. */
export const PROCESSING_MS = 15 * 60_000;

interface Shot {
  id: string;
  title: string;
  url: string | null;
  createdAt: Date | null;
}

export function createDribbbleReconciler(options: AdapterOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent, ctx) {
      try {
        const { fetch, baseUrl } = apiEndpoint(options, 'DRIBBBLE_API_BASE_URL', DRIBBBLE_DEFAULT_BASE_URL);
        const answer = await withAccessToken(connection, null, ctx.tokens, (token) =>
          dribbbleClient(fetch, baseUrl, token, options.timeoutMs).call('GET', `/user/shots?page=1&per_page=${RECENT_POSTS_TO_READ}`),
        );
        const list = Array.isArray(answer.json) ? (answer.json as unknown[]) : [];
        const shots: Shot[] = list.flatMap((raw) => {
          const id = jsonString(raw, 'id');
          if (!id) return [];
          const at = Date.parse(jsonString(raw, 'published_at') ?? jsonString(raw, 'updated_at') ?? '');
          return [{ id, title: jsonString(raw, 'title') ?? '', url: jsonString(raw, 'html_url') ?? null, createdAt: Number.isNaN(at) ? null : new Date(at) }];
        });
        const title = shotText({ content: intent.content, settings: intent.settings as { title?: string } }).title;
        const since = intent.startedAt.getTime() - CLOCK_SLACK_MS;
        const matching = shots.filter((s) => normaliseText(s.title) === normaliseText(title) && (!s.createdAt || s.createdAt.getTime() >= since));
        const settled = settleFromRecentPosts({
          intent,
          posts: shots,
          matching,
          listEnded: shots.length < RECENT_POSTS_TO_READ,
          idOf: (s) => s.id,
          found: (s, startedAt) => ({
            result: { postedId: s.id, permalink: s.url ?? dribbbleShotUrl(s.id) },
            evidence: `Dribbble shot ${s.id} (${s.createdAt ? `published ${s.createdAt.toISOString()}` : 'with no publication time'}) carries the title sent by the attempt begun ${startedAt}`,
          }),
          wording: { kind: 'Dribbble shots', items: (n) => `the user’s ${n} Dribbble shots`, sent: 'title' },
        });
        if (settled.outcome === 'absent' && ctx.now.getTime() - intent.startedAt.getTime() < PROCESSING_MS) {
          return {
            outcome: 'unknown',
            evidence: `${settled.evidence}, but Dribbble lists a shot only once it has processed it, which can take a while after it is accepted; look at the profile before sending it again`,
          };
        }
        return settled;
      } catch (error) {
        return { outcome: 'unknown', evidence: `Dribbble could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
