// Listmonk reconcile: settles a publish that was cut off by asking the server for its newest
// campaigns (reconcile.ts). Read only.
//
// Source: https://listmonk.app/docs/apis/campaigns/#get-apicampaigns
//   GET /api/campaigns?order_by=created_at&order=DESC&per_page=<n> → { data: { results:
//   [{ id, created_at, subject, lists: [{ id, name }], status }], total, per_page, page } }
// Listmonk takes no idempotency key, so the campaign is told by what the attempt sent: the
// list, the subject, created since the attempt began. A matching campaign still a draft when
// the post was to be sent was created but never started: a person decides (start it, or send
// the post again after deleting it), since Herald cannot tell whether someone paused it.
import { defaultFetch, jsonAt, jsonString, type AdapterOptions } from '../http';
import { articleOf } from '../catalogue/long-form';
import { LISTMONK_MAX_SUBJECT } from '../catalogue/listmonk';
import { normaliseText, RECENT_POSTS_TO_READ, settleFromRecentPosts, CLOCK_SLACK_MS, type Reconciler } from '../reconcile';
import { campaignPage, listmonkAccount, listmonkClient } from './listmonk-api';

interface Campaign {
  id: string;
  subject: string;
  listIds: number[];
  status: string;
  createdAt: Date | null;
}

export function createListmonkReconciler(options: AdapterOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent) {
      try {
        const account = listmonkAccount(connection, options.baseUrl);
        const api = listmonkClient(options.fetch ?? defaultFetch(), account.origin, connection.accessToken ?? '', options.timeoutMs);
        const answer = await api.call('GET', `/api/campaigns?order_by=created_at&order=DESC&page=1&per_page=${RECENT_POSTS_TO_READ}`);
        const results = jsonAt(answer.json, 'data', 'results');
        const campaigns: Campaign[] = (Array.isArray(results) ? results : []).flatMap((raw) => {
          const id = jsonString(raw, 'id');
          if (!id) return [];
          const at = Date.parse(jsonString(raw, 'created_at') ?? '');
          const lists = jsonAt(raw, 'lists');
          return [
            {
              id,
              subject: jsonString(raw, 'subject') ?? '',
              listIds: (Array.isArray(lists) ? lists : []).map((l) => Number(jsonString(l, 'id'))),
              status: jsonString(raw, 'status') ?? '',
              createdAt: Number.isNaN(at) ? null : new Date(at),
            },
          ];
        });
        const settings = intent.settings as { subject?: string; send?: boolean };
        const subject = articleOf(intent.content, settings.subject, LISTMONK_MAX_SUBJECT).title;
        const since = intent.startedAt.getTime() - CLOCK_SLACK_MS;
        const matching = campaigns.filter(
          (c) => c.listIds.includes(account.listId) && normaliseText(c.subject) === normaliseText(subject) && (!c.createdAt || c.createdAt.getTime() >= since),
        );
        const unstarted = settings.send !== false ? matching.filter((c) => c.status === 'draft') : [];
        if (matching.length === 1 && unstarted.length === 1) {
          return {
            outcome: 'unknown',
            evidence: `Listmonk campaign ${unstarted[0]!.id} carries the subject sent but is still a draft: it was created and never started. Start it in Listmonk (${campaignPage(account.origin, unstarted[0]!.id)}) and mark the post published, or delete it and send the post again`,
          };
        }
        const total = Number(jsonString(answer.json, 'data', 'total'));
        return settleFromRecentPosts({
          intent,
          posts: campaigns,
          matching,
          listEnded: Number.isFinite(total) && total <= campaigns.length,
          idOf: (c) => c.id,
          found: (c, startedAt) => ({
            result: { postedId: c.id, permalink: campaignPage(account.origin, c.id) },
            evidence: `Listmonk campaign ${c.id} (${c.status}, ${c.createdAt ? `created ${c.createdAt.toISOString()}` : 'with no creation time'}) to the list carries the subject sent by the attempt begun ${startedAt}`,
          }),
          wording: { kind: 'Listmonk campaigns', items: (n) => `the server’s ${n} Listmonk campaigns`, sent: 'list and subject' },
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `Listmonk could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
