// Medium (a profile, or a publication the account writes for): https://github.com/Medium/medium-api-docs
// ("3.3. Posts": POST /v1/users/{authorId}/posts or /v1/publications/{publicationId}/posts
// { title, contentFormat, content, tags, canonicalUrl, publishStatus, notifyFollowers } → 201
// { data: Post }). "Titles longer than 100 characters will be ignored"; "Only the first three
// [tags] will be used. Tags longer than 25 characters will be ignored." The body is Markdown:
// Herald's text goes as written, under the title as a heading (Medium shows no title it is not
// given in the content). Images go in the Markdown by URL: Medium "will automatically side-load
// any images" in a post's content ("3.4. Images"). No video.
//
// Medium's API is no longer supported by Medium (the documentation repository was archived on
// 2 March 2023), and Medium no longer issues integration tokens: existing ones still work.
import { z } from 'zod';
import { ZText } from '@/server/shared/schemas';
import { type PlatformCatalogueEntry } from './entry';
import { codePointLength } from './text-length';
import { noPostMetrics } from './post-metrics';
import { noComments } from './comments';
import { canonicalUrlSetting, LONG_FORM_MAX_CHARS, tagsSetting, titleSetting, LONG_FORM_MEDIA } from './long-form';

export const MEDIUM_MAX_TITLE = 100;

export const MEDIUM_NO_STATISTICS = 'Medium’s API has no call that reads a story or its statistics (only creating one)';

export const medium = {
  label: 'Medium',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: LONG_FORM_MAX_CHARS, count: codePointLength },
  media: LONG_FORM_MEDIA,
  article: { maxTitle: MEDIUM_MAX_TITLE },
  settings: z.strictObject({
    title: titleSetting(MEDIUM_MAX_TITLE),
    published: z.boolean().optional().describe('Publishes the story; false leaves it a draft on Medium for a last look').meta({ default: true }),
    unlisted: z
      .boolean()
      .optional()
      .describe('Publishes the story unlisted: readable by its link only, not on the profile or in feeds')
      .meta({ default: false }),
    tags: tagsSetting(3, ZText.trim().min(1).max(25)),
    canonicalUrl: canonicalUrlSetting,
    notifyFollowers: z.boolean().optional().describe('Tells the account’s followers that the story was published'),
  }),
  // An integration token does not lapse; it is revoked in Medium's settings.
  tokensExpire: false,
  postMetrics: noPostMetrics(MEDIUM_NO_STATISTICS),
  comments: noComments('Medium’s API has no calls for a story’s responses'),
  reconcile: {
    none: 'Medium cannot be asked: its API has no call listing a user’s or a publication’s stories, nor reading one by id, and takes no key that would make a second POST /posts harmless. Look at the profile (or the publication’s drafts) to see whether the story is there',
  },
} satisfies PlatformCatalogueEntry;
