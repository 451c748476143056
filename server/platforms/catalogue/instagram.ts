// Instagram: https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media
// (caption, carousel of up to 10, reel and story specifications) and the content publishing
// guide (media required). Every single feed video is published as a reel, so the feed's
// video limits are the reel's.
import { z } from 'zod';
import { storableText, ZText } from '@/server/shared/schemas';
import { MB, type PlatformCatalogueEntry } from './entry';
import { codePointLength } from './text-length';

export const instagram = {
  label: 'Instagram',
  text: { maxChars: 2200, count: codePointLength },
  media: {
    maxImages: 10,
    maxVideos: 10,
    maxItems: 10,
    mixed: true,
    required: true,
    maxVideoSeconds: 15 * 60,
    maxVideoBytes: 300 * MB,
    // videoType "story": one image or video; a story video is 3 s to 60 s, at most 100 MB.
    story: { maxItems: 1, maxVideoSeconds: 60, maxVideoBytes: 100 * MB },
  },
  settings: z.strictObject({
    videoType: z.enum(['feed', 'reel', 'story']).optional(),
    shareToFeed: z.boolean().optional(),
    coverUrl: z
      .url({ protocol: /^https$/ })
      .max(2048)
      .check(storableText)
      .optional(),
    firstComment: ZText.min(1).max(2200).optional(),
  }),
} satisfies PlatformCatalogueEntry;
