// Dribbble (API v2, https://developer.dribbble.com/v2/shots/#create-a-shot): a post is a shot,
// POST /v2/shots as multipart/form-data with the image file (required: exactly 400x300 or
// 1600x1200, at most 8 MB, GIF, JPG or PNG), a title (required), a description, up to 12 tags
// and low_profile. Creating a shot "requires the user to be authenticated with the upload scope"
// and the user to be allowed to upload shots (the user's can_upload_shot). Dribbble states no
// length for the title or the description: Herald caps them (255 and its long-form cap).
import { z } from 'zod';
import { ZText } from '@/server/shared/schemas';
import { MB, type PlatformCatalogueEntry } from './entry';
import { codePointLength } from './text-length';
import { LONG_FORM_MAX_CHARS } from './long-form';
import { noPostMetrics } from './post-metrics';
import { noComments } from './comments';

/** Herald's own cap on a shot's title (Dribbble states none). */
export const DRIBBBLE_MAX_TITLE = 255;
/** The only sizes Dribbble takes, in pixels. */
export const DRIBBBLE_IMAGE_SIZES = ['400x300', '1600x1200'] as const;
export const DRIBBBLE_IMAGE_TYPES = ['image/gif', 'image/jpeg', 'image/png'] as const;

/** Why Herald reads no metrics of a shot (its reader: server/platforms/dribbble/). */
export const DRIBBBLE_NO_STATISTICS = 'Dribbble’s API v2 gives a shot no view, like or comment counts';

export const dribbble = {
  label: 'Dribbble',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: LONG_FORM_MAX_CHARS, count: codePointLength },
  // One image per shot, and a shot needs one.
  media: { maxImages: 1, maxVideos: 0, maxItems: 1, mixed: false, required: true, maxVideoSeconds: 0, maxVideoBytes: 0, maxImageBytes: 8 * MB },
  settings: z.strictObject({
    title: ZText.trim()
      .min(1)
      .max(DRIBBBLE_MAX_TITLE)
      .optional()
      .describe('The shot’s title; the text’s first line when left out (the rest of the text is then the description)'),
    tags: z.array(ZText.trim().min(1).max(100)).max(12).optional().describe('Up to 12 tags'),
    lowProfile: z.boolean().optional().describe('Posts the shot as Low Profile: on the profile, but not in Dribbble’s feeds'),
  }),
  // Dribbble's access tokens do not expire, and it grants no refresh token.
  tokensExpire: false,
  postMetrics: noPostMetrics(DRIBBBLE_NO_STATISTICS),
  comments: noComments('Dribbble’s API v2 has no calls for a shot’s comments'),
  // How an interrupted publish is settled (server/platforms/dribbble/dribbble-reconcile.ts).
  reconcile: {
    ask: 'GET /v2/user/shots: the user’s newest shots, matched on the title and the time (Dribbble takes no idempotency key; a shot still being processed is not listed, so none matching soon after the attempt is unknown, not absent)',
    docs: 'https://developer.dribbble.com/v2/shots/#list-shots',
  },
} satisfies PlatformCatalogueEntry;
