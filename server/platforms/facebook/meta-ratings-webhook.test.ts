// Meta's Page `ratings` webhook read into reviews, from payloads shaped as the reference shows
// them, and from junk.
//   https://developers.facebook.com/docs/graph-api/webhooks/reference/page/#ratings
//   https://developers.facebook.com/docs/graph-api/webhooks/getting-started (the entry/changes envelope)
import { describe, expect, it } from 'vitest';
import { facebookReviewId } from './facebook-reviews';
import { parseMetaRatings } from './meta-ratings-webhook';

const PAGE = '546349135390552';
const STORY = '10160383920545791';

const rating = (value: Record<string, unknown>) => ({ field: 'ratings', value });
const added = {
  item: 'rating',
  verb: 'add',
  reviewer_id: '8123409876543210',
  reviewer_name: 'Maya Lindqvist',
  recommendation_type: 'positive',
  review_text: 'Best flat white in Soho.',
  open_graph_story_id: STORY,
  created_time: 1764065112,
};
const delivery = (...changes: unknown[]) => ({ object: 'page', entry: [{ id: PAGE, time: 1764065115, changes }] });

describe('Meta ratings webhook', () => {
  it('reads a new recommendation as the review a read gives', () => {
    expect(parseMetaRatings(delivery(rating(added)))).toEqual([
      {
        accountId: PAGE,
        platforms: ['facebook'],
        messages: [],
        reviews: [
          {
            id: STORY,
            authorName: 'Maya Lindqvist',
            authorAvatarUrl: null,
            rating: null,
            recommends: true,
            text: 'Best flat white in Soho.',
            createdAt: new Date(1764065112 * 1000),
            updatedAt: null,
            reply: null,
            permalink: null,
          },
        ],
      },
    ]);
  });

  it('reads a changed one with when it changed, and leaves out removals and comments under the story', () => {
    const edited = { ...added, verb: 'edit', recommendation_type: 'negative', review_text: 'Changed my mind.' };
    const [pushed] = parseMetaRatings(
      delivery(
        rating(edited),
        rating({ ...added, verb: 'remove', open_graph_story_id: '10160379211875791' }),
        rating({ ...added, item: 'comment', comment_id: `${STORY}_1116811742299021`, open_graph_story_id: '10160379211875792' }),
        { field: 'feed', value: { item: 'status', verb: 'add' } },
      ),
    );
    expect(pushed!.reviews).toEqual([
      expect.objectContaining({ id: STORY, recommends: false, text: 'Changed my mind.', updatedAt: new Date(1764065115 * 1000) }),
    ]);
  });

  it('names a recommendation without a story as the read does, and a nameless reviewer by id', () => {
    const { open_graph_story_id: _story, ...storyless } = added;
    const [pushed] = parseMetaRatings(delivery(rating({ ...storyless, reviewer_name: undefined, review_text: undefined, recommendation_type: undefined })));
    expect(pushed!.reviews).toEqual([
      expect.objectContaining({
        id: facebookReviewId(null, '8123409876543210', new Date('2025-11-25T10:05:12Z')),
        authorName: '8123409876543210',
        recommends: null,
        text: '',
      }),
    ]);
    expect(pushed!.reviews[0]!.id).toBe('rating:8123409876543210:1764065112');
  });

  it('gives one item per Page, and none for a Page with nothing to read', () => {
    const body = {
      object: 'page',
      entry: [
        { id: PAGE, time: 1764065115, changes: [rating(added)] },
        { id: 778899001122334, time: 1764065116, changes: [rating({ ...added, open_graph_story_id: '20160383920545791' })] },
        { id: '112233445566778', time: 1764065117, changes: [rating({ ...added, verb: 'remove' })] },
      ],
    };
    expect(parseMetaRatings(body).map((p) => [p.accountId, p.reviews.map((r) => r.id)])).toEqual([
      [PAGE, [STORY]],
      ['778899001122334', ['20160383920545791']],
    ]);
  });

  it('returns nothing for what it does not understand, and never throws', () => {
    const junk: unknown[] = [
      undefined,
      null,
      'page',
      42,
      [],
      {},
      { object: 'instagram', entry: [{ id: PAGE, changes: [rating(added)] }] },
      { object: 'page', entry: 'x' },
      { object: 'page', entry: [null, 1, 'x', { id: PAGE }, { id: PAGE, changes: {} }, { id: {}, changes: [rating(added)] }] },
      delivery(null, 'ratings', { field: 'ratings' }, { field: 'ratings', value: [] }),
      delivery(rating({ ...added, verb: 'add', open_graph_story_id: { id: STORY } })),
      delivery(rating({ ...added, open_graph_story_id: undefined, created_time: 'not a date' })),
      delivery(rating({ ...added, open_graph_story_id: undefined, created_time: 1e300 })),
      delivery(rating({ ...added, open_graph_story_id: undefined, reviewer_id: undefined })),
      JSON.parse('{"object":"page","entry":[{"id":"1","changes":[{"field":"ratings","value":{"__proto__":{"verb":"add"}}}]}]}'),
    ];
    for (const body of junk) expect(parseMetaRatings(body)).toEqual([]);
  });
});
