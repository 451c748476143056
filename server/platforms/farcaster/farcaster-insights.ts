// Farcaster cast metrics and followers, read through Neynar.
//
// Sources:
//   https://docs.neynar.com/reference/lookup-cast-by-hash-or-url
//     GET /v2/farcaster/cast?identifier=<hash>&type=hash → { cast: { hash, reactions:
//     { likes_count, recasts_count }, replies: { count } } }; a cast that is gone answers 404.
//   https://docs.neynar.com/reference/fetch-bulk-users
//     GET /v2/farcaster/user/bulk?fids=<fid> → { users: [{ fid, username, follower_count }] }
import { PlatformError } from '../publisher';
import { jsonAt } from '../http';
import { followers, networkMetricSet, numeric, read, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { farcasterAccount } from './farcaster-publisher';
import { neynarFor, type NeynarOptions } from './neynar-api';

const MISSING = 'Neynar returned no value for this cast';
const NOT_FOUND = 'Neynar did not find this cast (deleted, or no longer visible)';

export function createFarcasterInsightsReader(options: NeynarOptions = {}): PostMetricsReader {
  return {
    // One lookup per cast.
    maxIdsPerRequest: 1,
    source: 'farcaster',
    async readPostMetrics(_connection, posts) {
      const neynar = neynarFor(options);
      const out = new Map<string, PostMetricsResult>();
      for (const { postedId } of posts) {
        try {
          const answer = await neynar.get('/v2/farcaster/cast', { identifier: postedId, type: 'hash' });
          out.set(postedId, { ok: true, metrics: metricsOf(jsonAt(answer, 'cast')) });
        } catch (error) {
          if (error instanceof PlatformError && error.opts.status === 404) out.set(postedId, { ok: false, reason: NOT_FOUND });
          else throw error;
        }
      }
      return out;
    },
    async readFollowers(connection) {
      const { fid } = farcasterAccount(connection);
      const answer = await neynarFor(options).get('/v2/farcaster/user/bulk', { fids: fid });
      return followers(jsonAt(answer, 'users', 0, 'follower_count'), 'follower_count', 'Neynar returned no follower_count for this account');
    },
  };
}

function metricsOf(cast: unknown) {
  return networkMetricSet(
    'farcaster',
    {
      reactions: read(numeric(jsonAt(cast, 'reactions', 'likes_count')), 'reactions.likes_count', MISSING),
      shares: read(numeric(jsonAt(cast, 'reactions', 'recasts_count')), 'reactions.recasts_count', MISSING),
      comments: read(numeric(jsonAt(cast, 'replies', 'count')), 'replies.count', MISSING),
    },
    MISSING,
  );
}
