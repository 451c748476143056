// Threads: https://developers.facebook.com/docs/threads/posts (text, carousels, media specifications)
import { z } from 'zod';
import { GB, type PlatformCatalogueEntry } from './entry';
import { threadsLength } from './text-length';

export const threads = {
  label: 'Threads',
  text: { maxChars: 500, count: threadsLength },
  // A carousel takes 2 to 20 images, videos, or a mix.
  media: { maxImages: 20, maxVideos: 20, maxItems: 20, mixed: true, required: false, maxVideoSeconds: 5 * 60, maxVideoBytes: 1 * GB },
  settings: z.strictObject({}),
} satisfies PlatformCatalogueEntry;
