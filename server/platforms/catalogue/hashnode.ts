// Hashnode (a publication's blog, through the GraphQL API): https://apidocs.hashnode.com/
// (publishPost(input: PublishPostInput) { publicationId, title, contentMarkdown, tags:
// [{ slug, name }], originalArticleURL, coverImageOptions: { coverImageURL } } → post { id url };
// createDraft(input: CreateDraftInput) for a draft). Hashnode allows at most 15 tags on a post or
// draft, and creates a tag it does not know ("Errors & limits": Tags per post/draft 15). The body
// is Markdown: Herald's text goes as written. No video upload exists; the first image is the
// cover (Hashnode takes it by URL), the others follow the body as Markdown images.
import { z } from 'zod';
import { ZText } from '@/server/shared/schemas';
import { type PlatformCatalogueEntry } from './entry';
import { codePointLength } from './text-length';
import { noComments } from './comments';
import { canonicalUrlSetting, LONG_FORM_MAX_CHARS, tagsSetting, titleSetting, LONG_FORM_MEDIA } from './long-form';

/** Herald's own cap on a Hashnode title: Hashnode's schema states none (PublishPostInput.title: String!). */
export const HASHNODE_MAX_TITLE = 250;
export const HASHNODE_MAX_TAGS = 15;

export const hashnode = {
  label: 'Hashnode',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: LONG_FORM_MAX_CHARS, count: codePointLength },
  media: LONG_FORM_MEDIA,
  article: { maxTitle: HASHNODE_MAX_TITLE },
  settings: z.strictObject({
    title: titleSetting(HASHNODE_MAX_TITLE),
    published: z.boolean().optional().describe('Publishes the post on the blog; false leaves it a draft in Hashnode’s editor').meta({ default: true }),
    tags: tagsSetting(HASHNODE_MAX_TAGS, ZText.trim().min(1).max(50)),
    canonicalUrl: canonicalUrlSetting,
    subtitle: ZText.trim().min(1).max(250).optional().describe('The line shown under the title'),
  }),
  // A Personal Access Token does not lapse; it is revoked in Hashnode's developer settings.
  tokensExpire: false,
  postMetrics: {
    impressions: { none: 'Hashnode does not report impressions' },
    reach: { none: 'Hashnode does not report reach' },
    views: { reads: 'views' },
    reactions: { reads: 'reactionCount' },
    comments: { reads: 'responseCount' },
    shares: { none: 'Hashnode does not report shares' },
    saves: { none: 'Hashnode does not report bookmarks through its API' },
    linkClicks: { none: 'Hashnode does not report link clicks' },
    videoWatchSeconds: { none: 'Hashnode posts carry no video Herald uploads' },
  },
  comments: noComments('Hashnode’s API reads a post’s comments (Post.comments) but Herald does not read or answer them yet'),
  reconcile: {
    ask: 'publication(id) { posts, drafts } (the publication’s newest posts, or its drafts for a draft): matched on the title and the time; Hashnode takes no key that would make a second publishPost harmless',
    docs: 'https://apidocs.hashnode.com/',
  },
} satisfies PlatformCatalogueEntry;
