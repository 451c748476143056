// Dev.to reconcile: settles a publish that was cut off by asking DEV for the account's own
// articles (reconcile.ts). Read only.
//
// Source: https://developers.forem.com/api/v1#tag/articles/operation/getUserAllArticles
//   GET /api/articles/me/all?per_page= → [ArticleMe]: "both published and unpublished
//   articles"; the unpublished at the top in reverse chronological creation order, then the
//   published in reverse chronological publication order. An ArticleMe carries id, title,
//   body_markdown, published, published_at (null for a draft) and url; no creation time.
//
// DEV takes no idempotency key and has no id before the call that creates the article, so the
// articles are matched on the title and the Markdown body sent; a published one must also be
// published no earlier than the attempt. A draft has no time on it, so an older draft with the
// same title and body counts too: several matches are left to a person.
import { matchesIntent, RECENT_POSTS_TO_READ, settleFromRecentPosts, type Reconciler } from '../reconcile';
import { jsonString, type AdapterOptions } from '../http';
import { parseStoredSettings } from '../catalogue';
import { devtoClient } from './devto-api';
import { devtoArticle } from './devto-publisher';

interface OwnArticle {
  id: string;
  title: string;
  text: string;
  url: string | null;
  createdAt: Date | null;
}

export function createDevtoReconciler(options: AdapterOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent) {
      try {
        if (!connection.accessToken) return { outcome: 'unknown', evidence: 'DEV could not be asked: no API key is stored for this account' };
        const sent = devtoArticle({ content: intent.content, mediaUrls: [...intent.mediaUrls], settings: parseStoredSettings('devto', intent.settings) });
        const response = await devtoClient(options, connection.accessToken).call('GET', `/api/articles/me/all?per_page=${RECENT_POSTS_TO_READ}`);
        const list = Array.isArray(response.json) ? response.json : [];
        const articles: OwnArticle[] = list.flatMap((item) => {
          const id = jsonString(item, 'id');
          if (!id) return [];
          const publishedAt = Date.parse(jsonString(item, 'published_at') ?? '');
          return [
            {
              id,
              title: jsonString(item, 'title') ?? '',
              text: jsonString(item, 'body_markdown') ?? '',
              url: jsonString(item, 'url') ?? null,
              createdAt: Number.isNaN(publishedAt) ? null : new Date(publishedAt),
            },
          ];
        });
        const matching = articles.filter(
          (a) => a.title.trim() === sent.title && matchesIntent({ content: sent.body_markdown, startedAt: intent.startedAt }, a),
        );
        return settleFromRecentPosts({
          intent,
          // Drafts carry no time: only the order of the published ones can show the list reached back.
          posts: articles.filter((a) => a.createdAt),
          matching,
          listEnded: list.length < RECENT_POSTS_TO_READ,
          idOf: (a) => a.id,
          found: (a, since) => ({
            result: { postedId: a.id, permalink: a.url },
            evidence: `DEV article ${a.id} (${a.createdAt ? `published ${a.createdAt.toISOString()}` : 'a draft'}) carries the title and body sent by the attempt begun ${since}`,
          }),
          wording: { kind: 'DEV articles', items: (n) => `the account’s ${n} DEV articles`, sent: 'title and body' },
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `DEV could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
