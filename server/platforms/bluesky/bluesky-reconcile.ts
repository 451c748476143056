// Bluesky reconcile: an interrupted publish is settled by reading the one record it could have
// written. The publisher writes the post under a record key derived from the target's id
// (bluesky-richtext.ts recordKeyFor), so every attempt of a target writes the same record: that
// record is there (found) or it is not (absent), whatever happened to the attempt.
//
// Sources:
//   https://docs.bsky.app/docs/api/com-atproto-repo-get-record
//     GET /xrpc/com.atproto.repo.getRecord?repo=<did>&collection=app.bsky.feed.post&rkey=<rkey>
//     → { uri, cid, value }; a key with no record answers 400 { error: "RecordNotFound", message }.
//     "Does not require auth": asked without the session's token, so a lapsed session does not
//     stand in the way of the answer.
//   https://github.com/bluesky-social/atproto/blob/main/lexicons/com/atproto/repo/getRecord.json
//     (RecordNotFound is the only error the lexicon names; a repository that is gone, taken down
//     or deactivated answers otherwise, which is not an answer about the record: unknown)
//   https://docs.bsky.app/docs/advanced-guides/rate-limits (429 with RateLimit-Reset)
import { callApi, defaultFetch, isSuccess, jsonString, withQuery, type AdapterOptions } from '../http';
import type { Reconciled, Reconciler } from '../reconcile';
import { blueskyError, blueskyRetryAfter } from './bluesky-api';
import { accountOf, publishedPost } from './bluesky-publisher';
import { recordKeyFor } from './bluesky-richtext';

export function createBlueskyReconciler(options: AdapterOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent): Promise<Reconciled> {
      const rkey = recordKeyFor(intent.idempotencyKey);
      try {
        const fetch = options.fetch ?? defaultFetch();
        // Each account lives on its own PDS: options.baseUrl (tests) stands in for it.
        const account = accountOf(connection, options.baseUrl);
        const uri = `at://${account.did}/app.bsky.feed.post/${rkey}`;
        const response = await callApi(
          fetch,
          withQuery(`${account.pds}/xrpc/com.atproto.repo.getRecord`, { repo: account.did, collection: 'app.bsky.feed.post', rkey }),
          { timeoutMs: options.timeoutMs, retryAfter: blueskyRetryAfter },
        );
        if (isSuccess(response) && jsonString(response.json, 'uri')) {
          const createdAt = jsonString(response.json, 'value', 'createdAt');
          return {
            outcome: 'found',
            result: publishedPost(account, rkey),
            evidence: `Bluesky has the record ${uri}, under the key Herald derives from this target${createdAt ? ` (created ${createdAt})` : ''}`,
          };
        }
        if (jsonString(response.json, 'error') === 'RecordNotFound') {
          return {
            outcome: 'absent',
            evidence: `Bluesky has no record ${uri}, the key every attempt of this target writes: ${jsonString(response.json, 'message') ?? 'RecordNotFound'}`,
          };
        }
        return { outcome: 'unknown', evidence: `Bluesky did not say whether ${uri} exists: ${blueskyError(response).message}` };
      } catch (error) {
        return {
          outcome: 'unknown',
          evidence: `Bluesky could not be asked about record key ${rkey}: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
    },
  };
}
