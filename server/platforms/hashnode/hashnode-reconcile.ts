// Hashnode reconcile: settles a publish that was cut off by asking the publication for its newest
// posts, or its drafts when the attempt made a draft (reconcile.ts). Read only.
//
// Source: https://apidocs.hashnode.com/ (query publication(id) { posts(first) { edges { node {
// id title url publishedAt } } pageInfo { hasNextPage } } drafts(first) { ... updatedAt } };
// drafts are read with the account's token, at most 50 a page). Hashnode takes no idempotency
// key and has no id before the call that creates the post, so posts are matched on the title and
// the time (publishedAt, a draft's updatedAt); whether the list is newest first is checked, not
// assumed (settleFromRecentPosts).
import { matchesIntent, RECENT_POSTS_TO_READ, settleFromRecentPosts, type Reconciler } from '../reconcile';
import { jsonAt, jsonString, type AdapterOptions } from '../http';
import { parseStoredSettings } from '../catalogue';
import { HASHNODE_MAX_TITLE } from '../catalogue/hashnode';
import { articleOf } from '../long-form';
import { hashnodeClient } from './hashnode-api';
import { hashnodePublication } from './hashnode-publisher';

const RECENT =
  'query Recent($id: ObjectId!, $first: Int!) { publication(id: $id) { id posts(first: $first) { edges { node { id title url publishedAt } } pageInfo { hasNextPage } } drafts(first: $first) { edges { node { id title updatedAt } } pageInfo { hasNextPage } } } }';

interface BlogItem {
  id: string;
  text: string;
  url: string | null;
  createdAt: Date | null;
}

function itemsOf(connection: unknown, timeField: string): BlogItem[] {
  const edges = jsonAt(connection, 'edges');
  return (Array.isArray(edges) ? edges : []).flatMap((edge) => {
    const id = jsonString(edge, 'node', 'id');
    if (!id) return [];
    const at = Date.parse(jsonString(edge, 'node', timeField) ?? '');
    return [
      { id, text: jsonString(edge, 'node', 'title') ?? '', url: jsonString(edge, 'node', 'url') ?? null, createdAt: Number.isNaN(at) ? null : new Date(at) },
    ];
  });
}

export function createHashnodeReconciler(options: AdapterOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent) {
      try {
        if (!connection.accessToken) return { outcome: 'unknown', evidence: 'Hashnode could not be asked: no token is stored for this account' };
        const settings = parseStoredSettings('hashnode', intent.settings);
        const { title } = articleOf(intent.content, settings.title, HASHNODE_MAX_TITLE);
        const draft = settings.published === false;
        const data = await hashnodeClient(options, connection.accessToken).graphql(RECENT, {
          id: hashnodePublication(connection.platformData),
          first: RECENT_POSTS_TO_READ,
        });
        const list = jsonAt(data, 'publication', draft ? 'drafts' : 'posts');
        const items = itemsOf(list, draft ? 'updatedAt' : 'publishedAt');
        const kind = draft ? 'Hashnode drafts' : 'Hashnode posts';
        return settleFromRecentPosts({
          intent,
          posts: items,
          matching: items.filter((item) => matchesIntent({ content: title, startedAt: intent.startedAt }, item)),
          listEnded: jsonAt(list, 'pageInfo', 'hasNextPage') === false,
          idOf: (item) => item.id,
          found: (item, since) => ({
            result: { postedId: item.id, permalink: item.url },
            evidence: `Hashnode ${draft ? 'draft' : 'post'} ${item.id} (${draft ? 'saved' : 'published'} ${item.createdAt?.toISOString() ?? 'at no stated time'}) carries the title sent by the attempt begun ${since}`,
          }),
          wording: { kind, items: (n) => `the publication’s ${n} ${kind}`, sent: 'title' },
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `Hashnode could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
