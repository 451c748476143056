// LinkedIn reconcile: settles a publish that was cut off by asking LinkedIn for the author's
// recent posts (reconcile.ts). Read only: nothing here creates, publishes or deletes.
//
// Sources:
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api
//     "Find Posts by Authors": GET /rest/posts?author={encoded person or organization urn}
//     &q=author&count=&sortBy=LAST_MODIFIED|CREATED (X-RestLi-Method: FINDER) → { paging: {
//     start, count, links, total }, elements: [Post] }; a Post has id (urn:li:share:… or
//     urn:li:ugcPost:…), author, commentary (little text), createdAt and publishedAt (epoch
//     ms), lifecycleState. It needs r_organization_social for a page, r_member_social for a
//     member: LinkedIn grants the latter to few apps, and its refusal is passed on verbatim.
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/little-text-format
//
// LinkedIn has no upload or post id before the call that creates the post (the image and video
// URNs are the media's, not the post's), so the author's posts, newest created first, are
// matched on the commentary (read back from little text) and the creation time.
import type { AttemptIntent, Reconciled, Reconciler } from '../reconcile';
import { matchesIntent, RECENT_POSTS_TO_READ, settleFromRecentPosts } from '../reconcile';
import { apiEndpoint, callApi, isSuccess, jsonAt, jsonString } from '../http';
import { env } from '@/server/config/env';
import { withAccessToken } from '../token-refresh';
import { authorUrn, LINKEDIN_DEFAULT_BASE_URL, LINKEDIN_DEFAULT_VERSION, linkedinError } from './linkedin-api';
import { linkedinRefresher, type LinkedInOptions } from './linkedin-publisher';
import { fromLittleText } from './little-text';

interface AuthorPost {
  id: string;
  text: string;
  createdAt: Date | null;
}

export function createLinkedInReconciler(options: LinkedInOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent, ctx) {
      const { fetch, baseUrl } = apiEndpoint(options, 'LINKEDIN_API_BASE_URL', LINKEDIN_DEFAULT_BASE_URL);
      const version = options.version ?? env.linkedinApiVersion() ?? LINKEDIN_DEFAULT_VERSION;
      const author = authorUrn(connection.externalId);
      try {
        return await withAccessToken(connection, linkedinRefresher(fetch, options), ctx.tokens, async (token) => {
          const query = `author=${encodeURIComponent(author)}&q=author&count=${RECENT_POSTS_TO_READ}&sortBy=CREATED`;
          const response = await callApi(fetch, `${baseUrl}/rest/posts?${query}`, {
            headers: {
              authorization: `Bearer ${token}`,
              'linkedin-version': version,
              'x-restli-protocol-version': '2.0.0',
              'x-restli-method': 'FINDER',
            },
            timeoutMs: options.timeoutMs,
          });
          if (!isSuccess(response)) throw linkedinError(response);
          const elements = jsonAt(response.json, 'elements');
          const posts: AuthorPost[] = (Array.isArray(elements) ? elements : []).flatMap((element) => {
            const id = jsonString(element, 'id');
            if (!id) return [];
            const created = Number(jsonAt(element, 'createdAt') ?? jsonAt(element, 'publishedAt'));
            return [
              {
                id,
                text: fromLittleText(jsonString(element, 'commentary') ?? ''),
                createdAt: Number.isFinite(created) && created > 0 ? new Date(created) : null,
              },
            ];
          });
          const links = jsonAt(response.json, 'paging', 'links');
          const hasNext = Array.isArray(links) && links.some((link) => jsonAt(link, 'rel') === 'next');
          return settle(intent, posts, posts.length < RECENT_POSTS_TO_READ && !hasNext);
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `LinkedIn could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}

/** The one post since the attempt with its commentary is found (settleFromRecentPosts says the rest). */
function settle(intent: AttemptIntent, posts: AuthorPost[], listEnded: boolean): Reconciled {
  return settleFromRecentPosts({
    intent,
    posts,
    matching: posts.filter((post) => matchesIntent(intent, post)),
    listEnded,
    idOf: (post) => post.id,
    found: (post, since) => ({
      result: { postedId: post.id, permalink: `https://www.linkedin.com/feed/update/${post.id}/` },
      evidence: `LinkedIn post ${post.id} (created ${post.createdAt?.toISOString() ?? 'at no stated time'}) carries the commentary sent by the attempt begun ${since}`,
    }),
    wording: { kind: 'LinkedIn posts', items: (n) => `the author's ${n} LinkedIn posts`, sent: 'commentary' },
  });
}
