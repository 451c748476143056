// Reddit: https://www.reddit.com/dev/api#POST_api_submit (kind self | link | image | video,
// sr, title, text, url, flair_id, flair_text, nsfw, spoiler; api_type=json), titles up to 300
// characters and self text up to 40,000 (Reddit's submit form and its error TOO_LONG), images
// up to 20 MB and videos up to 15 minutes and 1 GB (Reddit Help,
// https://support.reddithelp.com/hc/en-us/articles/360043053312). A video post needs a
// poster image (the submission's video_poster_url), so `posterUrl` is required with a video.
// A post goes to one subreddit, named per post.
import { z } from 'zod';
import { storableText, ZText } from '@/server/shared/schemas';
import { GB, MB, type PlatformCatalogueEntry } from './entry';
import { codePointLength } from './text-length';
import { noMessages, noReviews } from './conversations';

export const reddit = {
  label: 'Reddit',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 40_000, count: codePointLength },
  // A text post, a link post, one image or one video; galleries are not offered by Herald.
  media: { maxImages: 1, maxVideos: 1, maxItems: 1, mixed: false, required: false, maxVideoSeconds: 15 * 60, maxVideoBytes: 1 * GB, maxImageBytes: 20 * MB },
  settings: z.strictObject({
    subreddit: ZText.regex(/^(r\/)?[A-Za-z0-9][A-Za-z0-9_]{1,20}$/, 'a subreddit name, e.g. coffee or r/coffee')
      .optional()
      .describe('The subreddit to post to (required), e.g. "coffee"'),
    title: ZText.trim().min(1).max(300).optional().describe('The post title (required), up to 300 characters'),
    url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .check(storableText)
      .optional()
      .describe('Makes a link post to this URL; the post text then becomes the author’s first comment'),
    posterUrl: z
      .url({ protocol: /^https$/ })
      .max(2048)
      .check(storableText)
      .optional()
      .describe('The poster (thumbnail) image of a video post, an https image URL; required with a video'),
    flairId: z.string().min(1).max(64).check(storableText).optional().describe('The id of one of the subreddit’s post flairs (its flair template id)'),
    flairText: ZText.trim().min(1).max(64).optional().describe('Your own text for the flair, where the subreddit lets it be edited'),
    nsfw: z.boolean().optional().describe('Marks the post NSFW (not safe for work)'),
    spoiler: z.boolean().optional().describe('Marks the post as a spoiler'),
  }),
  requiredSettings: ['subreddit', 'title'],
  requiredSettingsWithVideo: ['posterUrl'],
  // What Herald reads of a published post (its reader: server/platforms/reddit/), and why not the rest.
  postMetrics: {
    impressions: { none: 'Reddit does not report impressions to apps' },
    reach: { none: 'Reddit does not report reach' },
    views: { none: 'Reddit gives view_count only to its own clients (null to apps)' },
    reactions: { reads: 'ups' },
    comments: { reads: 'num_comments' },
    shares: { reads: 'num_crossposts' },
    saves: { none: 'Reddit does not report how many users saved a post' },
    linkClicks: { none: 'Reddit does not report link clicks to apps' },
    videoWatchSeconds: { none: 'Reddit does not report watch time' },
  },
  // What an app may do with the comments under its posts (the inbox), and the pages each call follows.
  comments: {
    read: { call: 'GET /comments/{article}', docs: 'https://www.reddit.com/dev/api/#GET_comments_{article}' },
    reply: { call: 'POST /api/comment', docs: 'https://www.reddit.com/dev/api/#POST_api_comment', maxChars: 10_000 },
    hide: {
      call: 'POST /api/remove',
      docs: 'https://www.reddit.com/dev/api/#POST_api_remove',
      note: 'Only where the account moderates the subreddit; POST /api/approve shows it again',
    },
    delete: { none: 'Reddit deletes only the account’s own comments; someone else’s is removed by a moderator' },
    like: { call: 'POST /api/vote (dir=1)', docs: 'https://www.reddit.com/dev/api/#POST_api_vote' },
  },
  messages: noMessages('Reddit’s private messages (GET /message/inbox) are not read by Herald yet'),
  reviews: noReviews('Reddit has no reviews'),
  // How an interrupted publish is settled (reconcile.ts): Reddit takes no idempotency key, so it is asked.
  reconcile: {
    ask: 'GET /user/{username}/submitted?sort=new: the account’s newest submissions, matched on the subreddit, the title and the time',
    docs: 'https://www.reddit.com/dev/api#GET_user_{username}_{where}',
  },
} satisfies PlatformCatalogueEntry;
