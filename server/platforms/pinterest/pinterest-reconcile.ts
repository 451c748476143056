// Pinterest reconcile: settles a publish that was cut off by asking the board for its pins
// (reconcile.ts). Read only: nothing here creates, pins or deletes.
//
// Sources:
//   https://developers.pinterest.com/docs/api/v5/boards-list_pins
//     GET /v5/boards/{board_id}/pins?page_size= (1 to 250) → { items: [Pin], bookmark }: a Pin
//     has id, created_at (UTC, written without a zone), title, description, link, board_id;
//     bookmark is null on the last page. Scopes boards:read and pins:read.
//   https://developers.pinterest.com/docs/api/v5/ "Errors" ({ code, message } with the status)
//
// Pinterest has no id before the call that creates the pin (a video's media_id is the upload's,
// not the pin's), so the board the publisher pinned to is read and its pins matched on what
// was sent (description, and the title and link when the post set them) and the creation time.
// Pinterest does not document the order of a board's pins: a board read to its end settles
// absence, and so does a read whose pins come newest first and reach back past the attempt.
import type { AttemptIntent, Reconciled, Reconciler } from '../reconcile';
import { matchesIntent, normaliseText, RECENT_POSTS_TO_READ, settleFromRecentPosts } from '../reconcile';
import { apiEndpoint, jsonAt, jsonString } from '../http';
import { withAccessToken } from '../token-refresh';
import { PINTEREST_DEFAULT_BASE_URL, pinterestClient } from './pinterest-api';
import { pinterestRefresher, type PinterestOptions } from './pinterest-publisher';

interface BoardPin {
  id: string;
  createdAt: Date | null;
  description: string;
  title: string;
  link: string;
}

export function createPinterestReconciler(options: PinterestOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent, ctx) {
      const { fetch, baseUrl } = apiEndpoint(options, 'PINTEREST_API_BASE_URL', PINTEREST_DEFAULT_BASE_URL);
      // The board the publisher pinned to: the post's own, else the connection's.
      const boardId = stringSetting(intent.settings.boardId) ?? stringSetting(connection.platformData?.boardId);
      if (!boardId) return { outcome: 'unknown', evidence: 'No Pinterest board is known for this attempt, so there is no board to read' };
      try {
        return await withAccessToken(connection, pinterestRefresher(fetch, baseUrl, options), ctx.tokens, async (token) => {
          const answer = await pinterestClient(fetch, baseUrl, token, options.timeoutMs).get(
            `/v5/boards/${encodeURIComponent(boardId)}/pins?page_size=${RECENT_POSTS_TO_READ}`,
          );
          const items = jsonAt(answer.json, 'items');
          const pins = (Array.isArray(items) ? items : []).flatMap((item): BoardPin[] => {
            const id = jsonString(item, 'id');
            if (!id) return [];
            return [
              {
                id,
                createdAt: utcDate(jsonString(item, 'created_at')),
                description: jsonString(item, 'description') ?? '',
                title: jsonString(item, 'title') ?? '',
                link: jsonString(item, 'link') ?? '',
              },
            ];
          });
          return settle(intent, boardId, pins, !jsonString(answer.json, 'bookmark'));
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `Pinterest could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}

function settle(intent: AttemptIntent, boardId: string, pins: BoardPin[], boardEnded: boolean): Reconciled {
  const title = stringSetting(intent.settings.title);
  const link = stringSetting(intent.settings.link);
  const parts = ['description', ...(title ? ['title'] : []), ...(link ? ['link'] : [])];
  const sent = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : 'description';
  return settleFromRecentPosts({
    intent,
    posts: pins,
    matching: pins.filter(
      (pin) =>
        matchesIntent(intent, { text: pin.description, createdAt: pin.createdAt }) &&
        (!title || normaliseText(pin.title) === normaliseText(title)) &&
        (!link || sameLink(pin.link, link)),
    ),
    listEnded: boardEnded,
    idOf: (pin) => pin.id,
    found: (pin, since) => ({
      result: { postedId: pin.id, permalink: `https://www.pinterest.com/pin/${pin.id}/` },
      evidence: `Pinterest pin ${pin.id} on board ${boardId} (created ${pin.createdAt?.toISOString() ?? 'at no stated time'}) carries the ${sent} sent by the attempt begun ${since}`,
    }),
    wording: { kind: `pins on board ${boardId}`, items: (n) => `the ${n} pins of board ${boardId}`, sent },
  });
}

/** Pinterest writes its UTC times without a zone ("2026-11-27T09:30:00"). */
function utcDate(value: string | undefined): Date | null {
  if (!value) return null;
  const date = new Date(/(Z|[+-]\d\d:?\d\d)$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

function sameLink(a: string, b: string): boolean {
  const bare = (url: string) => {
    try {
      return new URL(url.trim()).href.replace(/\/$/, '');
    } catch {
      return url.trim();
    }
  };
  return bare(a) === bare(b);
}

function stringSetting(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}
