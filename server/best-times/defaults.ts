// Platform-wide posting times used when a workspace has too little history of its own
// (docs/analytics.md lists them). Weekday 1 = Monday … 7 = Sunday; hours are local to the
// workspace's time zone. They are general audience patterns, not this workspace's data, and
// every answer that uses them says so.
import type { BestTimePlatform } from './best-times.schemas';

export interface DefaultSlot {
  isoWeekday: number;
  hour: number;
}

export const PLATFORM_DEFAULT_SLOTS: Record<BestTimePlatform | 'all', DefaultSlot[]> = {
  instagram: [
    { isoWeekday: 2, hour: 11 },
    { isoWeekday: 3, hour: 11 },
    { isoWeekday: 4, hour: 12 },
    { isoWeekday: 1, hour: 11 },
    { isoWeekday: 5, hour: 10 },
  ],
  facebook: [
    { isoWeekday: 2, hour: 9 },
    { isoWeekday: 3, hour: 9 },
    { isoWeekday: 4, hour: 10 },
    { isoWeekday: 1, hour: 9 },
    { isoWeekday: 5, hour: 9 },
  ],
  linkedin: [
    { isoWeekday: 3, hour: 10 },
    { isoWeekday: 2, hour: 10 },
    { isoWeekday: 4, hour: 9 },
    { isoWeekday: 3, hour: 12 },
    { isoWeekday: 4, hour: 10 },
  ],
  twitter: [
    { isoWeekday: 3, hour: 9 },
    { isoWeekday: 2, hour: 9 },
    { isoWeekday: 4, hour: 9 },
    { isoWeekday: 3, hour: 12 },
    { isoWeekday: 1, hour: 10 },
  ],
  all: [
    { isoWeekday: 3, hour: 10 },
    { isoWeekday: 2, hour: 10 },
    { isoWeekday: 4, hour: 10 },
    { isoWeekday: 3, hour: 12 },
    { isoWeekday: 1, hour: 11 },
  ],
};
