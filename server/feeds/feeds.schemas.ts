// Wire schemas of the /feeds routes (REST, tRPC and tools share them).
import { z } from 'zod';
import { ZPostFields } from '@/server/posts/posts.schemas';
import { ZIdOf, ZNullableTimestamp, ZText, ZTimestamp } from '@/server/shared/schemas';

export const MAX_FEED_URL = 2048;
export const MAX_TEMPLATE = 2000;
export const FEED_MODES = ['draft', 'queue'] as const;
export const FEED_STATUSES = ['active', 'paused'] as const;
export type FeedMode = (typeof FEED_MODES)[number];
export type FeedStatus = (typeof FEED_STATUSES)[number];
/** Failed reads in a row that pause a feed; a good read resets the count. */
export const FEED_PAUSE_AFTER = 5;
export const DEFAULT_TEMPLATE = '{title} {link}';

const FEED_EXAMPLE = {
  id: '6d7e8f90-a1b2-4c3d-8e4f-5a6b7c8d9e0f',
  url: 'https://blog.acme-coffee.example/feed.xml',
  title: 'Acme Coffee Journal',
  connectionIds: ['3c6e2b1a-7d4f-4e8a-9b2c-1d0e5f6a7b8c'],
  mode: 'draft',
  template: 'New on the journal: {title} {link}',
  useImage: true,
  status: 'active',
  lastCheckedAt: '2026-12-08T09:15:00.000Z',
  lastError: null,
  consecutiveFailures: 0,
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-08T09:15:00.000Z',
};

export const ZFeed = z
  .object({
    id: z.uuid().describe('The feed’s id'),
    url: z.string().describe('The feed’s address, normalised as it is read'),
    title: z.string().describe('The feed’s own title, from its last good read'),
    connectionIds: z.array(z.uuid()).describe('The accounts each item’s post goes to'),
    mode: z.enum(FEED_MODES).describe('draft: each new item becomes a draft; queue: it is added to the posting queue'),
    template: z.string().describe('The post text, with {title}, {link} and {summary} replaced by the item’s'),
    useImage: z.boolean().describe('true: the item’s image (enclosure, media:content or media:thumbnail) is attached'),
    status: z.enum(FEED_STATUSES).describe(`active, or paused (${FEED_PAUSE_AFTER} failed reads in a row, or PATCH status paused): a paused feed is not read`),
    lastCheckedAt: ZNullableTimestamp.describe('When the feed was last read, successfully or not'),
    lastError: z.string().nullable().describe('Why the last read failed; null after a good read'),
    consecutiveFailures: z.number().int().describe(`Failed reads in a row; ${FEED_PAUSE_AFTER} pause the feed, a good read resets it to 0`),
    createdAt: ZTimestamp.describe('When the feed was added'),
    updatedAt: ZTimestamp.describe('When it last changed'),
  })
  .meta({ id: 'Feed', description: 'An RSS or Atom feed the workspace follows, and how reading it is going.', example: FEED_EXAMPLE });
export type FeedDto = z.infer<typeof ZFeed>;

const ZUrl = ZText.trim()
  .min(1)
  .max(MAX_FEED_URL)
  .describe('The RSS or Atom feed’s address: https, public addresses only, no credentials')
  .meta({ example: 'https://blog.acme-coffee.example/feed.xml' });
const ZMode = z.enum(FEED_MODES).describe('draft (default): each new item becomes a draft; queue: it goes to the posting queue').meta({ example: 'draft' });
const ZTemplate = ZText.trim()
  .min(1)
  .max(MAX_TEMPLATE)
  .describe(`The post text; {title}, {link} and {summary} are replaced by the item’s (default "${DEFAULT_TEMPLATE}")`)
  .meta({ example: 'New on the journal: {title} {link}' });
const ZUseImage = z.literal([true, false]).describe('true (default): attach the item’s image when it has one').meta({ example: true });

export const ZCreateFeedInput = z
  .strictObject({
    url: ZUrl,
    connectionIds: ZPostFields.connectionIds,
    mode: ZMode.optional(),
    template: ZTemplate.optional(),
    useImage: ZUseImage.optional(),
  })
  .meta({
    example: {
      url: 'https://blog.acme-coffee.example/feed.xml',
      connectionIds: ['3c6e2b1a-7d4f-4e8a-9b2c-1d0e5f6a7b8c'],
      mode: 'draft',
      template: 'New on the journal: {title} {link}',
      useImage: true,
    },
  });
export type CreateFeedInput = z.infer<typeof ZCreateFeedInput>;

export const ZUpdateFeedInput = z
  .strictObject({
    url: ZUrl.optional(),
    connectionIds: ZPostFields.connectionIds.optional(),
    mode: ZMode.optional(),
    template: ZTemplate.optional(),
    useImage: ZUseImage.optional(),
    status: z
      .enum(FEED_STATUSES)
      .optional()
      .describe('paused stops reading the feed; active resumes it and resets consecutiveFailures')
      .meta({ example: 'active' }),
  })
  .meta({ example: { template: 'Fresh from the journal: {title} {link}', status: 'active' } });
export type UpdateFeedInput = z.infer<typeof ZUpdateFeedInput>;

export const ZFeedId = ZIdOf('feed', 'from feeds_list (GET /feeds)');

export const ZFeedCheck = z
  .object({
    feed: ZFeed,
    itemsRead: z.number().int().describe('Items the feed listed on this read'),
    postIds: z.array(z.uuid()).describe('The posts made from new items on this read'),
    refused: z
      .array(z.object({ key: z.string().describe('The item’s guid or link'), error: z.string().describe('Why its post was refused') }))
      .describe('New items whose post was refused (too long for a network, image refused…); they are not tried again'),
  })
  .meta({
    id: 'FeedCheck',
    description: 'One read of a feed: the feed as it now stands, and the posts made from its new items.',
    example: { feed: FEED_EXAMPLE, itemsRead: 10, postIds: ['4f5a6b7c-8d9e-4f01-a2b3-c4d5e6f7a8b9'], refused: [] },
  });
export type FeedCheckDto = z.infer<typeof ZFeedCheck>;
