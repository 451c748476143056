// TikTok: https://developers.tiktok.com/doc/content-posting-api-reference-direct-post (caption in
// UTF-16 units), …/content-posting-api-media-transfer-guide (up to 35 photos, or one video of up
// to 4 GB and 10 min), …/content-posting-api-get-started (media required). Photo posts could
// carry 4,000 units in their description; Herald keeps one text rule per platform.
import { z } from 'zod';
import { GB, type PlatformCatalogueEntry } from './entry';
import { utf16Length } from './text-length';

export const tiktok = {
  label: 'TikTok',
  text: { maxChars: 2200, count: utf16Length },
  media: { maxImages: 35, maxVideos: 1, maxItems: 35, mixed: false, required: true, maxVideoSeconds: 10 * 60, maxVideoBytes: 4 * GB },
  settings: z.strictObject({}),
} satisfies PlatformCatalogueEntry;
