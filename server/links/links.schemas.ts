// Wire schemas of tracked links (REST, tRPC, tools and the settings share them).
import { z } from 'zod';
import { ZDay, checkWindow } from '@/server/shared/analytics-window';
import { PLATFORMS } from '@/server/shared/platforms';
import { ZIdOf, ZText, ZTimestamp } from '@/server/shared/schemas';

/** Where a short link is served, under Herald's base URL. */
export const SHORT_LINK_PATH = '/l/';
/** Length of a short code: base62 characters from crypto.randomBytes (about 59 bits). */
export const SHORT_CODE_LENGTH = 10;
export const SHORT_CODE = /^[0-9A-Za-z]{10}$/;

export const DEFAULT_UTM_TEMPLATE = 'utm_source={network}&utm_medium=social&utm_campaign=herald';
export const UTM_PLACEHOLDERS = ['{network}', '{post}'] as const;
export const MAX_UTM_TEMPLATE = 500;

/**
 * The UTM template: query parameters `name=value` joined by `&`, each name a letter, digit, `_`,
 * `-` or `.` sequence, each value free text in which {network} (the network's id, e.g.
 * linkedin) and {post} (the post's id) are replaced. Empty: no parameters are added.
 */
export const ZUtmTemplate = ZText.trim()
  .max(MAX_UTM_TEMPLATE)
  .refine((t) => t === '' || t.split('&').every((pair) => /^[A-Za-z0-9_.-]+=[^&=]*$/.test(pair)), {
    message: 'write name=value pairs joined by & (e.g. utm_source={network}&utm_medium=social)',
  })
  .refine((t) => (t.match(/\{[^}]*\}/g) ?? []).every((p) => (UTM_PLACEHOLDERS as readonly string[]).includes(p)), {
    message: `the only placeholders are ${UTM_PLACEHOLDERS.join(' and ')}`,
  })
  .describe(`UTM parameters added to every tracked link: name=value pairs joined by &; {network} and {post} are replaced; empty adds none`)
  .meta({ example: DEFAULT_UTM_TEMPLATE });

const LINK_EXAMPLE = {
  id: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
  postId: '7c1e9a52-3b4d-4f6e-8a9b-0c1d2e3f4a5b',
  platform: 'linkedin',
  url: 'https://acme-coffee.example/spring',
  destination: 'https://acme-coffee.example/spring?utm_source=linkedin&utm_medium=social&utm_campaign=herald',
  shortUrl: 'https://herald.northwind.example/l/q3Zr8KdX2a',
  clicks: 42,
  createdAt: '2026-12-08T09:00:00.000Z',
};

export const ZTrackedLink = z
  .object({
    id: z.uuid().describe('The link’s id: GET /links/{id}/clicks'),
    postId: z.uuid().describe('The post whose text it is in'),
    platform: z.enum(PLATFORMS).describe('The network whose text it is in: each network gets its own short link (its own UTM parameters)'),
    url: z.string().describe('The link as written in the post'),
    destination: z.string().describe('Where the short link leads: the link with the workspace’s UTM parameters added'),
    shortUrl: z.string().describe('The short link the network received in place of url'),
    clicks: z.number().int().describe('Clicks counted so far, every day together (bots and HEAD requests are not counted)'),
    createdAt: ZTimestamp.describe('When Herald made it'),
  })
  .meta({
    id: 'TrackedLink',
    description: 'A short link Herald put in place of a link in a post’s text on one network, and its clicks.',
    example: LINK_EXAMPLE,
  });
export type TrackedLinkDto = z.infer<typeof ZTrackedLink>;

export const ZLinkClicks = z
  .object({
    link: ZTrackedLink,
    window: z
      .object({
        from: ZDay.nullable().describe('First day counted; null: from the first click'),
        to: ZDay.nullable().describe('Last day counted; null: today'),
      })
      .describe('The days asked for (UTC)'),
    total: z.number().int().describe('Clicks on the days asked for'),
    days: z
      .array(z.object({ date: ZDay.describe('A UTC day'), clicks: z.number().int().describe('Clicks that day') }))
      .describe('Each day with clicks, oldest first'),
  })
  .meta({
    id: 'LinkClicks',
    description: 'A tracked link’s clicks per UTC day.',
    example: {
      link: LINK_EXAMPLE,
      window: { from: null, to: null },
      total: 42,
      days: [
        { date: '2026-12-08', clicks: 30 },
        { date: '2026-12-09', clicks: 12 },
      ],
    },
  });
export type LinkClicksDto = z.infer<typeof ZLinkClicks>;

export const ZLinkClicksQuery = z
  .strictObject({
    id: ZIdOf('tracked link', 'from GET /posts/{id}/links (links_for_post)'),
    from: ZDay.optional().describe('First UTC day counted, YYYY-MM-DD'),
    to: ZDay.optional().describe('Last UTC day counted, inclusive'),
  })
  .superRefine(checkWindow);
export type LinkClicksQuery = z.infer<typeof ZLinkClicksQuery>;
