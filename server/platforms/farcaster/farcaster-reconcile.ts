// Farcaster reconcile: settles an interrupted cast by asking Neynar for the account's newest
// casts (reconcile.ts). Read only.
//
// Source: https://docs.neynar.com/reference/fetch-casts-for-user
//   GET /v2/farcaster/feed/user/casts?fid=&limit=&include_replies=false → { casts: [{ hash,
//   text, timestamp (ISO 8601), author: { fid, username } }], next: { cursor } }, newest first.
// The cast was sent with Neynar's idem, so a repeat cannot cast twice; the newest casts tell
// whether the first attempt landed: its text, cast since the attempt began.
import { jsonAt, jsonString } from '../http';
import { matchesIntent, settleFromRecentPosts, type Reconciler } from '../reconcile';
import { farcasterAccount, farcasterPermalink } from './farcaster-publisher';
import { neynarFor, type NeynarOptions } from './neynar-api';

const LIMIT = 25;

interface Cast {
  hash: string;
  text: string;
  createdAt: Date | null;
}

function castsOf(json: unknown): Cast[] {
  const casts = jsonAt(json, 'casts');
  return (Array.isArray(casts) ? casts : []).flatMap((cast) => {
    const hash = jsonString(cast, 'hash');
    if (!hash) return [];
    const at = Date.parse(jsonString(cast, 'timestamp') ?? '');
    return [{ hash, text: jsonString(cast, 'text') ?? '', createdAt: Number.isNaN(at) ? null : new Date(at) }];
  });
}

export function createFarcasterReconciler(options: NeynarOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent) {
      try {
        const account = farcasterAccount(connection);
        const answer = await neynarFor(options).get('/v2/farcaster/feed/user/casts', { fid: account.fid, limit: LIMIT, include_replies: false });
        const posts = castsOf(answer);
        const matching = posts.filter((c) => matchesIntent(intent, { text: c.text, createdAt: c.createdAt }));
        return settleFromRecentPosts({
          intent,
          posts,
          matching,
          listEnded: posts.length < LIMIT && !jsonString(answer, 'next', 'cursor'),
          idOf: (c) => c.hash,
          found: (c, since) => ({
            result: { postedId: c.hash, permalink: farcasterPermalink(account.username, c.hash) },
            evidence: `Cast ${c.hash} (${c.createdAt ? `cast ${c.createdAt.toISOString()}` : 'with no time'}) carries the text sent by the attempt begun ${since}`,
          }),
          wording: { kind: `casts by @${account.username}`, items: (n) => `@${account.username}’s ${n} casts`, sent: 'text' },
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `Neynar could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
