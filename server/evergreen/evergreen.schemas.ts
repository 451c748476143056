// Wire schemas of the evergreen routes (REST, tRPC and tools share them).
import { z } from 'zod';
import { ZPostFields } from '@/server/posts/posts.schemas';
import { ZIdOf, ZNullableTimestamp, ZText, ZTimestamp } from '@/server/shared/schemas';

export const MIN_INTERVAL_DAYS = 1;
export const MAX_INTERVAL_DAYS = 365;
export const MAX_TEXTS = 10;
export const MAX_REPEATS = 1000;
export const EVERGREEN_STATUSES = ['active', 'ended'] as const;
export type EvergreenStatus = (typeof EVERGREEN_STATUSES)[number];
/** Why an evergreen post stopped: its end date, its number of repeats, a member, or its post no longer published. */
export const EVERGREEN_END_REASONS = ['ends_at', 'max_repeats', 'stopped', 'source_gone'] as const;
export type EvergreenEndReason = (typeof EVERGREEN_END_REASONS)[number];

const EVERGREEN_EXAMPLE = {
  postId: '5b0f8f8e-2c7a-4c1e-9a57-0f6a1d3c2b11',
  intervalDays: 30,
  texts: ['Our autumn menu is here: pumpkin spice is back.', 'Still on the menu: pumpkin spice, every day this autumn.'],
  endsAt: '2027-03-01T00:00:00.000Z',
  maxRepeats: 6,
  repeats: 2,
  nextDueAt: '2027-01-23T09:00:00.000Z',
  lastQueuedPostId: '4f5a6b7c-8d9e-4f01-a2b3-c4d5e6f7a8b9',
  status: 'active',
  endedReason: null,
  lastError: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-12-24T09:00:00.000Z',
};

export const ZEvergreen = z
  .object({
    postId: z.uuid().describe('The published post that is repeated (its source)'),
    intervalDays: z.number().int().describe('Days between one copy’s publication and the next repeat’s place in the queue'),
    texts: z.array(z.string()).describe('The texts the repeats rotate through, in order; empty: each repeat has the post’s own text and variants'),
    endsAt: ZNullableTimestamp.describe('No repeat is queued from then on; null: no end date'),
    maxRepeats: z.number().int().nullable().describe('Repeats after which it ends; null: no limit'),
    repeats: z.number().int().describe('Repeats queued so far'),
    nextDueAt: ZTimestamp.describe(
      'When the next repeat is due to be queued (the last copy’s time + intervalDays, or later when a network’s duplicate-text window or an unpublished repeat holds it)',
    ),
    lastQueuedPostId: z.uuid().nullable().describe('The last repeat queued (GET /posts/{id}); null before the first'),
    status: z.enum(EVERGREEN_STATUSES).describe('active, or ended (no more repeats; endedReason says why)'),
    endedReason: z
      .enum(EVERGREEN_END_REASONS)
      .nullable()
      .describe(
        'ends_at (its end date passed), max_repeats (all repeats made), stopped (DELETE), source_gone (the post is no longer published); null while active',
      ),
    lastError: z
      .string()
      .nullable()
      .describe(
        'Why the last due repeat was not queued (refused, or every text inside a network’s duplicate-text window: it is tried again later); null after a repeat',
      ),
    createdAt: ZTimestamp.describe('When the post was made evergreen'),
    updatedAt: ZTimestamp.describe('When the setting last changed'),
  })
  .meta({
    id: 'Evergreen',
    description: 'A published post repeated through the posting queue: its interval, rotating texts, end conditions and progress.',
    example: EVERGREEN_EXAMPLE,
  });
export type EvergreenDto = z.infer<typeof ZEvergreen>;

export const ZEvergreenPostId = ZIdOf('post', 'from posts_list (a published post)');

export const ZSetEvergreenInput = z
  .strictObject({
    intervalDays: z
      .number()
      .int()
      .min(MIN_INTERVAL_DAYS)
      .max(MAX_INTERVAL_DAYS)
      .describe(`Days between one copy’s publication and the next repeat (${MIN_INTERVAL_DAYS}–${MAX_INTERVAL_DAYS})`)
      .meta({ example: 30 }),
    texts: z
      .array(ZPostFields.content)
      .max(MAX_TEXTS)
      .optional()
      .describe(`Up to ${MAX_TEXTS} texts the repeats rotate through, in order; absent or empty: the post’s own text and variants`)
      .meta({ example: ['Our autumn menu is here: pumpkin spice is back.', 'Still on the menu: pumpkin spice, every day this autumn.'] }),
    endsAt: ZTimestamp.nullable()
      .optional()
      .describe('No repeat is queued from this time on; null or absent: no end date')
      .meta({ example: '2027-03-01T00:00:00Z' }),
    maxRepeats: z
      .number()
      .int()
      .min(1)
      .max(MAX_REPEATS)
      .nullable()
      .optional()
      .describe(`Stop after this many repeats (1–${MAX_REPEATS}); null or absent: no limit`)
      .meta({ example: 6 }),
  })
  .meta({
    example: {
      intervalDays: 30,
      texts: ['Our autumn menu is here: pumpkin spice is back.', 'Still on the menu: pumpkin spice, every day this autumn.'],
      endsAt: '2027-03-01T00:00:00Z',
      maxRepeats: 6,
    },
  });
export type SetEvergreenInput = z.infer<typeof ZSetEvergreenInput>;

export const ZListEvergreenQuery = z.strictObject({
  status: z
    .enum([...EVERGREEN_STATUSES, 'all'])
    .default('active')
    .describe('active (the default), ended, or all'),
  cursor: ZText.max(200).optional().describe('nextCursor of the previous page'),
  limit: z.number().int().min(1).max(100).default(50).describe('Settings per page (1–100)'),
});
export type ListEvergreenQuery = z.infer<typeof ZListEvergreenQuery>;

export const ZEvergreenPage = z.object({
  data: z.array(ZEvergreen).describe('This page, most recently made evergreen first'),
  nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
});
