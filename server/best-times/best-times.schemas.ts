import { z } from 'zod';
import { ZProvenance } from '@/server/analytics/analytics.schemas';

export const BEST_TIME_PLATFORMS = ['instagram', 'facebook', 'linkedin', 'twitter'] as const;
export type BestTimePlatform = (typeof BEST_TIME_PLATFORMS)[number];
export const BEST_TIME_METHODS = ['engagement', 'publish_outcomes', 'platform_defaults'] as const;
export type BestTimeMethod = (typeof BEST_TIME_METHODS)[number];
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

export const ZBestTimesQuery = z.strictObject({
  platform: z.enum(BEST_TIME_PLATFORMS).optional().describe('One platform; omitted: every platform of the history together'),
});

export const ZBestTimeSlot = z
  .object({
    rank: z.number().int().describe('1 is the strongest suggestion'),
    startsAt: z.iso.datetime({ offset: true }).describe('The next occurrence of the slot, an instant (UTC)'),
    localTime: z.string().describe('The same moment in the workspace’s time zone, YYYY-MM-DDTHH:mm'),
    dayOfWeek: z.enum(WEEKDAYS),
    hour: z.number().int().min(0).max(23),
    score: z.number().nullable().describe('engagement: mean engagement of posts published in that hour; publish_outcomes: share published; defaults: null'),
    sampleSize: z.number().int().describe('Deliveries of the history in that weekday and hour (0 for defaults)'),
    basis: z.enum(BEST_TIME_METHODS),
  })
  .meta({ id: 'BestTimeSlot' });

export const ZBestTimes = z
  .object({
    platform: z.enum(BEST_TIME_PLATFORMS).nullable(),
    timeZone: z.string(),
    insufficientHistory: z.boolean().describe('true: the workspace has too little history; slots are platform-wide defaults, labelled so'),
    slots: z.array(ZBestTimeSlot),
    inputs: z.object({
      method: z.enum(BEST_TIME_METHODS),
      sampleSize: z.number().int().describe('Deliveries (published or failed) in the window'),
      withEngagement: z.number().int().describe('Of those, published ones with an engagement reading'),
      minimumSample: z.number().int(),
      window: z.object({ from: z.iso.datetime({ offset: true }), to: z.iso.datetime({ offset: true }), days: z.number().int() }),
    }),
  })
  .meta({ id: 'BestTimes' });

export const ZBestTimesResponse = z.object({ data: ZBestTimes, provenance: ZProvenance });
