// Google Business Profile reconcile: settles a publish that was cut off by asking the location
// for its local posts (reconcile.ts). Read only: nothing here creates, edits or deletes.
//
// Sources:
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/list
//     GET /v4/{parent=accounts/*/locations/*}/localPosts?pageSize= (1 to 100, default 20)
//     &pageToken= → { localPosts: [LocalPost], nextPageToken } ("If there are more local posts
//     than the requested page size, this field is populated with a token").
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts#LocalPost
//     name, summary, topicType, event { title }, state (LIVE, PROCESSING, REJECTED),
//     createTime, searchUrl ("The link to the local post in Google Search").
//
// Google has no id before the call that creates the local post, so the location's posts are
// matched on what was sent (summary, topic type, and the event's title when there is one) and
// the creation time. The list's order is not documented: a location read to its end settles
// absence, and so does a read whose posts come newest first and reach back past the attempt.
import type { AttemptIntent, Reconciled, Reconciler } from '../reconcile';
import { matchesIntent, normaliseText, RECENT_POSTS_TO_READ, settleFromRecentPosts } from '../reconcile';
import { apiEndpoint, callApi, jsonAt, jsonString } from '../http';
import { googleError, googleRefresher } from '../google/google-api';
import { oauthApps } from '../oauth-apps';
import { withAccessToken } from '../token-refresh';
import { GOOGLE_BUSINESS_DEFAULT_BASE_URL, googleBusinessHosts, LOCATION_NAME } from './google-business-api';
import type { GoogleBusinessOptions } from './google-business-publisher';

const NAME = 'Google Business Profile';

interface LocalPost {
  name: string;
  summary: string;
  topicType: string;
  eventTitle: string | null;
  state: string | null;
  createdAt: Date | null;
  searchUrl: string | null;
}

export function createGoogleBusinessReconciler(options: GoogleBusinessOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent, ctx) {
      const { fetch, baseUrl } = apiEndpoint(options, 'GOOGLE_BUSINESS_API_BASE_URL', GOOGLE_BUSINESS_DEFAULT_BASE_URL);
      if (!LOCATION_NAME.test(connection.externalId)) {
        return {
          outcome: 'unknown',
          evidence: `This Google Business Profile connection names no location (${connection.externalId}), so there are no posts to read`,
        };
      }
      const { posts: host } = googleBusinessHosts(baseUrl);
      try {
        return await withAccessToken(connection, googleRefresher(fetch, options, oauthApps.google_business()), ctx.tokens, async (token) => {
          const response = await callApi(fetch, `${host}/v4/${connection.externalId}/localPosts?pageSize=${RECENT_POSTS_TO_READ}`, {
            headers: { authorization: `Bearer ${token}` },
            timeoutMs: options.timeoutMs,
          });
          const error = googleError(response, NAME);
          if (error) throw error;
          const listed = jsonAt(response.json, 'localPosts');
          const posts = (Array.isArray(listed) ? listed : []).flatMap((raw): LocalPost[] => {
            const name = jsonString(raw, 'name');
            if (!name) return [];
            const created = Date.parse(jsonString(raw, 'createTime') ?? '');
            return [
              {
                name,
                summary: jsonString(raw, 'summary') ?? '',
                topicType: jsonString(raw, 'topicType') ?? 'STANDARD',
                eventTitle: jsonString(raw, 'event', 'title') ?? null,
                state: jsonString(raw, 'state') ?? null,
                createdAt: Number.isNaN(created) ? null : new Date(created),
                searchUrl: jsonString(raw, 'searchUrl') ?? null,
              },
            ];
          });
          return settle(intent, posts, !jsonString(response.json, 'nextPageToken'));
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `Google Business Profile could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}

function settle(intent: AttemptIntent, posts: LocalPost[], listEnded: boolean): Reconciled {
  const topicType = typeof intent.settings.topicType === 'string' ? intent.settings.topicType : 'STANDARD';
  const eventTitle = jsonString(intent.settings, 'event', 'title');
  const sent = eventTitle ? 'summary, topic and event title' : 'summary and topic';
  return settleFromRecentPosts({
    intent,
    posts,
    matching: posts.filter(
      (post) =>
        matchesIntent(intent, { text: post.summary, createdAt: post.createdAt }) &&
        post.topicType === topicType &&
        (!eventTitle || normaliseText(post.eventTitle ?? '') === normaliseText(eventTitle)),
    ),
    listEnded,
    idOf: (post) => post.name,
    found: (post, since) => ({
      // As the publisher answers: the post's name, and its searchUrl once Google has one.
      result: { postedId: post.name, permalink: post.searchUrl },
      evidence: `Google Business Profile post ${post.name} (${post.state ?? 'no state'}, created ${post.createdAt?.toISOString() ?? 'at no stated time'}) carries the ${sent} sent by the attempt begun ${since}`,
    }),
    wording: { kind: 'local posts', items: (n) => `the location's ${n} local posts`, sent },
  });
}
