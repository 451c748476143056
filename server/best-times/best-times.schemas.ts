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
    dayOfWeek: z.enum(WEEKDAYS).describe('The weekday of the slot, in the workspace’s time zone'),
    hour: z.number().int().min(0).max(23).describe('The hour the slot starts, 0–23, in the workspace’s time zone'),
    score: z.number().nullable().describe('engagement: mean engagement of posts published in that hour; publish_outcomes: share published; defaults: null'),
    sampleSize: z.number().int().describe('Deliveries of the history in that weekday and hour (0 for defaults)'),
    basis: z.enum(BEST_TIME_METHODS).describe('How this slot was chosen: the same as inputs.method'),
  })
  .meta({ id: 'BestTimeSlot', description: 'A suggested weekly slot: a weekday and hour, and its next occurrence.' });

export const ZBestTimes = z
  .object({
    platform: z.enum(BEST_TIME_PLATFORMS).nullable().describe('The platform asked for; null: every platform of the history together'),
    timeZone: z.string().describe('The workspace’s IANA time zone, the clock of dayOfWeek, hour and localTime'),
    insufficientHistory: z.boolean().describe('true: the workspace has too little history; slots are platform-wide defaults, labelled so'),
    slots: z.array(ZBestTimeSlot).describe('The suggested weekly slots, strongest first'),
    inputs: z
      .object({
        method: z
          .enum(BEST_TIME_METHODS)
          .describe(
            'engagement: ranked by mean engagement (enough published posts with an engagement reading); publish_outcomes: ranked by the share of deliveries that published (enough deliveries, too few readings); platform_defaults: platform-wide defaults (too little history)',
          ),
        sampleSize: z.number().int().describe('Deliveries (published or failed) in the window'),
        withEngagement: z.number().int().describe('Of those, published ones with an engagement reading'),
        minimumSample: z.number().int().describe('How many deliveries (or readings, for engagement) a method needs before it is used'),
        window: z
          .object({
            from: z.iso.datetime({ offset: true }).describe('Start of the history read, an instant (UTC)'),
            to: z.iso.datetime({ offset: true }).describe('End of the history read: the time of the answer'),
            days: z.number().int().describe('Length of the history read, in days'),
          })
          .describe('The stretch of publish history the slots come from'),
      })
      .describe('What the suggestion was computed from'),
  })
  .meta({ id: 'BestTimes', description: 'Suggested weekly times to publish, and what they were computed from.' });

export const ZBestTimesResponse = z.object({ data: ZBestTimes, provenance: ZProvenance });
