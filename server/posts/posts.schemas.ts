// Wire schemas of the posts routes (REST, tRPC, tools share them).
import { z } from 'zod';
import { PLATFORMS } from '@/server/shared/platforms';
import { ZPlatform } from '@/server/connections/connections.schemas';
import { MAX_THREAD_PARTS, PLATFORM_CATALOGUE } from '@/server/platforms/catalogue';
import { documentedAs, ZNullableTimestamp, ZText, ZTimestamp, type JsonSchema } from '@/server/shared/schemas';

export const POST_STATUSES = ['draft', 'scheduled', 'publishing', 'published', 'partial_published', 'failed', 'cancelled'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
export const APPROVAL_STATUSES = ['none', 'pending', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export const TARGET_STATUSES = ['pending', 'publishing', 'published', 'failed'] as const;

export const MAX_CONTENT = 10_000;
export const MAX_CONNECTIONS = 20;
export const MAX_MEDIA = 10;

// Stuck and overdue posts (the rule: post-alerts.ts).
export const ALERT_KINDS = ['overdue', 'stuck'] as const;
/** What resolves the alert: publish now (also takes over a dead delivery), approve or reject it, or edit its time. */
export const ALERT_ACTIONS = ['publish_now', 'review', 'reschedule'] as const;

export const ZPostAlert = z
  .object({
    kind: z.enum(ALERT_KINDS).describe('overdue: past its time and not delivered; stuck: publishing without progress'),
    reason: z.string().describe('Why the post needs attention, in words'),
    action: z
      .enum(ALERT_ACTIONS)
      .describe(
        'The one action that resolves it: publish_now (POST /posts/{id}/publish), review (a member approves or rejects), reschedule (PATCH scheduledAt)',
      ),
    since: z.string().describe('When the post became overdue (its scheduled time) or last made progress'),
  })
  .meta({ id: 'PostAlert', description: 'Why a post needs attention, and the one action that resolves it.' });
export type PostAlert = z.infer<typeof ZPostAlert>;

export const ZAlertFilter = z
  .enum(['any', ...ALERT_KINDS])
  .describe('Only posts that need attention: overdue (past scheduledAt, not delivered), stuck (in publishing without progress), or any of the two');
export type AlertFilter = z.infer<typeof ZAlertFilter>;

export const ZTarget = z
  .object({
    id: z.uuid().describe('The target’s id: one account’s delivery of the post'),
    connectionId: z.uuid().describe('The connected account it delivers to (GET /connections)'),
    platform: ZPlatform.describe('The platform of that account'),
    status: z.enum(TARGET_STATUSES).describe('pending → publishing → published | failed'),
    postedId: z.string().nullable().describe('The post’s id on the platform, set once it landed'),
    permalink: z.string().nullable().describe('The public address of the post on the platform; null when the platform returned none'),
    error: z.string().nullable().describe('The platform’s error text, verbatim, when the delivery failed'),
    attempts: z.number().int().describe('Delivery attempts made so far (0 until the first)'),
    publishedAt: ZNullableTimestamp.describe('When the platform accepted the post'),
    confirmedAt: ZNullableTimestamp.describe(
      'Set when an attempt cut off by a crash or a timeout was settled by asking the network: when it answered (docs/reliability.md)',
    ),
    settlement: z
      .string()
      .nullable()
      .describe(
        'How an interrupted attempt was settled: what the network said proved it (published), or why Herald could not tell (failed with DELIVERY_UNCONFIRMED); null otherwise',
      ),
    firstComment: z
      .object({
        status: z
          .enum(['posting', 'posted', 'failed'])
          .describe('posting (under way), posted, or failed (the post itself stays published; POST /posts/{id}/retry posts the comment only)'),
        commentId: z.string().nullable().describe('The comment’s id on the network once posted'),
        permalink: z.string().nullable().describe('The comment’s address on the network, where it has one'),
        error: z.string().nullable().describe('The network’s words when it refused the comment; null otherwise'),
      })
      .nullable()
      .describe('The post’s first comment on this account: null while the post has not landed, or when there is none for this network'),
    thread: z
      .array(
        z.object({
          position: z.number().int().describe('The part’s place in the thread: 2 for the first reply (part 1 is this target itself)'),
          status: z
            .enum(['pending', 'posting', 'posted', 'failed'])
            .describe('pending (waits for the part before), posting (under way), posted, or failed (POST /posts/{id}/retry continues from here)'),
          postedId: z.string().nullable().describe('The part’s id on the network once posted'),
          permalink: z.string().nullable().describe('The part’s address on the network'),
          error: z.string().nullable().describe('The network’s words when it refused the part; null otherwise'),
          confirmedAt: ZNullableTimestamp.describe('Set when a part cut off by a crash or a timeout was found by asking the network'),
        }),
      )
      .nullable()
      .describe('The thread’s later parts on this account, in order, once part 1 landed; null for a post without parts'),
    updatedAt: ZTimestamp.describe('When this row last changed'),
  })
  .meta({
    id: 'Target',
    description: 'One account’s delivery of a post: its status, the platform’s answer and the post’s address there.',
    example: {
      id: '9d2c4e7a-1b3f-4a8e-8c5d-6e7f8a9b0c1d',
      connectionId: '3c6e2b1a-7d4f-4e8a-9b2c-1d0e5f6a7b8c',
      platform: 'linkedin',
      status: 'published',
      postedId: 'urn:li:share:7130000000000000000',
      permalink: 'https://www.linkedin.com/feed/update/urn:li:share:7130000000000000000',
      error: null,
      attempts: 1,
      publishedAt: '2026-11-24T09:00:02.000Z',
      confirmedAt: null,
      settlement: null,
      firstComment: { status: 'posted', commentId: '7130000000000000123', permalink: null, error: null },
      thread: null,
      updatedAt: '2026-11-24T09:00:02.000Z',
    },
  });

/**
 * platformSettings as the catalogue declares them: an object with an optional key per
 * platform, each that platform's settings schema (so a typed client sees
 * `facebook.firstComment`). Validation stays key by key in the service (platform-settings.ts:
 * PLATFORM_SETTING_UNKNOWN naming the path), which this schema documents and does not replace.
 */
export const ZPlatformSettingsByPlatform = z
  .strictObject(
    Object.fromEntries(
      PLATFORMS.map((p) => [
        p,
        PLATFORM_CATALOGUE[p].settings.describe(`Settings for ${PLATFORM_CATALOGUE[p].label}, used only when the post targets it`).optional(),
      ]),
    ),
  )
  .describe('Options per targeted platform');

let platformSettingsJson: JsonSchema | undefined;
const platformSettingsDocument = (): JsonSchema => {
  platformSettingsJson ??= (({ $schema: _, ...rest }) => rest)(
    z.toJSONSchema(ZPlatformSettingsByPlatform, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema,
  );
  return structuredClone(platformSettingsJson);
};
const PLATFORM_SETTINGS_EXAMPLE = { linkedin: { visibility: 'PUBLIC' } };

const ZVariant = z.strictObject({ content: ZText.min(1).max(MAX_CONTENT).describe('The text for that platform instead of content') });
/** Keyed by the platform enum; documented as one optional property per platform, which typed clients see as keys. */
const ZVariants = z.partialRecord(ZPlatform, ZVariant).meta({
  ...documentedAs(() => {
    const variant = z.toJSONSchema(ZVariant, { target: 'draft-2020-12', io: 'input' }) as JsonSchema;
    delete variant.$schema;
    return {
      type: 'object',
      properties: Object.fromEntries(PLATFORMS.map((p) => [p, { ...variant, description: `The text ${PLATFORM_CATALOGUE[p].label} gets instead of content` }])),
      additionalProperties: false,
    };
  }),
  example: { twitter: { content: 'Pumpkin spice is back on Monday 🎃' } },
});

export const ZPostBase = z.object({
  id: z.uuid().describe('The post’s id'),
  content: z.string().describe('The text every target gets unless its platform has a variant'),
  variants: ZVariants.nullable().describe('Text per platform instead of content; null when there is none'),
  mediaUrls: z.array(z.string()).describe('The attached images and videos, as addresses in Herald’s storage'),
  platforms: z.array(ZPlatform).describe('The platforms of the targets'),
  connectionIds: z.array(z.uuid()).describe('The connected accounts the post goes to, one target each'),
  status: z
    .enum(POST_STATUSES)
    .describe(
      'draft (no time), scheduled (queued for scheduledAt), publishing, published (every target landed), partial_published (some landed), failed (none landed), cancelled',
    ),
  approvalStatus: z
    .enum(APPROVAL_STATUSES)
    .describe('none, or pending until a member approves (approved) or rejects (rejected) it; a pending post does not publish'),
  scheduledAt: ZNullableTimestamp.describe('When the post publishes; null for a draft'),
  queued: z.boolean().describe('true when the posting queue placed the post (its time is a queue slot)'),
  publishedAt: ZNullableTimestamp.describe('When the first target landed; null until then'),
  platformSettings: z
    .record(z.string(), z.record(z.string(), z.unknown()))
    .meta(documentedAs(platformSettingsDocument))
    .nullable()
    .describe('Options per targeted platform, as sent; null when none'),
  firstComment: z.string().nullable().describe('Posted under the post once it lands, on every targeted network that lets Herald comment; null when none'),
  parts: z
    .array(
      z.object({
        content: z.string().describe('The part’s text'),
        mediaUrls: z.array(z.string()).describe('The part’s images and videos, as addresses in Herald’s storage'),
      }),
    )
    .describe('A thread: the parts posted after content, each as a reply to the one before; [] for a single post'),
  platformPostIds: z.record(z.string(), z.string()).nullable().describe('Map of connectionId → id of the post on that platform; null until something shipped'),
  error: z.string().nullable().describe('Summary of failed targets ("platform: error" per failed target); null until something failed'),
  alert: ZPostAlert.nullable().describe(
    'Set while the post is overdue (past its time, not delivered) or stuck in publishing: the reason and the one action that resolves it',
  ),
  createdAt: ZTimestamp.describe('When the post was created'),
  updatedAt: ZTimestamp.describe('When the post last changed'),
});
const POST_EXAMPLE = {
  id: '5b0f8f8e-2c7a-4c1e-9a57-0f6a1d3c2b11',
  content: 'Our autumn menu is here: pumpkin spice is back from Monday.',
  variants: { twitter: { content: 'Pumpkin spice is back on Monday 🎃' } },
  mediaUrls: ['https://herald.example/media/5e1d2c3b-4a59-4687-9a8b-7c6d5e4f3a2b/autumn-menu.jpg'],
  platforms: ['linkedin'],
  connectionIds: ['3c6e2b1a-7d4f-4e8a-9b2c-1d0e5f6a7b8c'],
  status: 'published',
  approvalStatus: 'none',
  scheduledAt: '2026-11-24T09:00:00.000Z',
  queued: false,
  publishedAt: '2026-11-24T09:00:02.000Z',
  platformSettings: { linkedin: { visibility: 'PUBLIC' } },
  firstComment: 'Full menu: https://acme-coffee.example/menu',
  parts: [],
  platformPostIds: { '3c6e2b1a-7d4f-4e8a-9b2c-1d0e5f6a7b8c': 'urn:li:share:7130000000000000000' },
  error: null,
  alert: null,
  createdAt: '2026-11-20T14:12:45.000Z',
  updatedAt: '2026-11-24T09:00:02.000Z',
};
export const ZPostListRow = ZPostBase.meta({
  id: 'PostListRow',
  description: 'A post as listed: everything but its targets (GET /posts/{id}/targets has them).',
  example: POST_EXAMPLE,
});
export const ZPost = ZPostBase.extend({ targets: z.array(ZTarget).describe('One row per connected account: its delivery') }).meta({
  id: 'Post',
  description: 'A post with its targets: one delivery per connected account.',
  example: { ...POST_EXAMPLE, targets: [z.globalRegistry.get(ZTarget)!.example] },
});
export type PostDto = z.infer<typeof ZPost>;
export type PostListRowDto = z.infer<typeof ZPostListRow>;
export type TargetDto = z.infer<typeof ZTarget>;

export const ZPostFields = {
  content: ZText.min(1)
    .max(MAX_CONTENT)
    .describe('The text for every target; a platform with a lower limit takes a variant')
    .meta({ example: 'Our autumn menu is here: pumpkin spice is back from Monday.' }),
  connectionIds: z
    .array(ZText.min(1).max(100))
    .min(1)
    .max(MAX_CONNECTIONS)
    .describe('Accounts to post to: connection ids from connections_list')
    .meta({ example: ['3c6e2b1a-7d4f-4e8a-9b2c-1d0e5f6a7b8c'] }),
  scheduledAt: ZTimestamp.describe('When to publish, ISO 8601 with offset; absent: a draft. Up to 5 min in the past becomes now').meta({
    example: '2026-11-24T09:00:00Z',
  }),
  /** https is checked by the media service, which names the refused URL (MEDIA_URL_REFUSED). */
  mediaUrls: z
    .array(ZText.min(1).max(2048))
    .max(MAX_MEDIA)
    .describe('Public https URLs of images or videos to attach')
    .meta({ example: ['https://acme-coffee.example/images/autumn-menu.jpg'] }),
  mediaIds: z
    .array(ZText.min(1).max(100))
    .max(MAX_MEDIA)
    .describe('Ready media asset ids (media_upload_url, PUT, media_complete)')
    .meta({ example: ['5e1d2c3b-4a59-4687-9a8b-7c6d5e4f3a2b'] }),
  /** Checked key by key by the service (PLATFORM_SETTING_UNKNOWN with the path). */
  platformSettings: z
    .record(ZText, z.unknown())
    .meta({ ...documentedAs(platformSettingsDocument), example: PLATFORM_SETTINGS_EXAMPLE })
    .describe('Options per targeted platform, keyed by platform id (PLATFORM_SETTING_UNKNOWN for a key it does not take)'),
  variants: ZVariants.describe('Text per platform instead of content, e.g. { "twitter": { "content": "…" } }'),
  requireApproval: z.boolean().describe('true: a member must approve the post before it publishes').meta({ example: false }),
  firstComment: ZText.trim()
    .min(1)
    .max(MAX_CONTENT)
    .describe(
      'Posted as a comment under the post right after it lands, on each targeted network that lets Herald comment (LinkedIn, YouTube, X, Bluesky, Threads, Mastodon, Reddit, Instagram, Facebook); checked against each one’s comment limit. A network’s own firstComment setting wins there',
    )
    .meta({ example: 'Full menu: https://acme-coffee.example/menu' }),
  parts: z
    .array(
      z.strictObject({
        content: ZText.min(1).max(MAX_CONTENT).describe('The part’s text'),
        mediaIds: z.array(ZText.min(1).max(100)).max(MAX_MEDIA).optional().describe('Media asset ids'),
        mediaUrls: z.array(ZText.min(1).max(2048)).max(MAX_MEDIA).optional().describe('Public https media URLs'),
      }),
    )
    .max(MAX_THREAD_PARTS - 1)
    .describe(
      `A thread: parts posted after content, each replying to the one before (X, Bluesky, Threads, Mastodon only); at most ${MAX_THREAD_PARTS - 1}, each within every targeted network’s limits`,
    )
    .meta({
      example: [
        { content: 'First, the pumpkin spice latte: same recipe as last year.' },
        { content: 'And new this year: a maple pecan cold brew.', mediaIds: ['5e1d2c3b-4a59-4687-9a8b-7c6d5e4f3a2b'] },
      ],
    }),
};

export const ZCreatePostInput = z
  .strictObject({
    content: ZPostFields.content,
    connectionIds: ZPostFields.connectionIds,
    scheduledAt: ZPostFields.scheduledAt.optional(),
    mediaUrls: ZPostFields.mediaUrls.optional(),
    mediaIds: ZPostFields.mediaIds.optional(),
    platformSettings: ZPostFields.platformSettings.optional(),
    variants: ZPostFields.variants.optional(),
    requireApproval: ZPostFields.requireApproval.optional(),
    firstComment: ZPostFields.firstComment.optional(),
    parts: ZPostFields.parts.optional(),
    queue: z
      .literal(true)
      .optional()
      .describe('true: publish at the next free slot of the posting queue shared by every account (GET /queue); send no scheduledAt'),
  })
  .meta({
    example: {
      content: 'Our autumn menu is here: pumpkin spice is back from Monday.',
      connectionIds: ['3c6e2b1a-7d4f-4e8a-9b2c-1d0e5f6a7b8c', '8e9f0a1b-2c3d-4e5f-9a6b-7c8d9e0f1a2b'],
      scheduledAt: '2026-11-24T09:00:00Z',
      mediaUrls: ['https://acme-coffee.example/images/autumn-menu.jpg'],
      platformSettings: { linkedin: { visibility: 'PUBLIC' } },
      firstComment: 'Full menu: https://acme-coffee.example/menu',
    },
  });
export type CreatePostInput = z.infer<typeof ZCreatePostInput>;

/** PATCH: the same fields, all optional; only sent fields change. scheduledAt null unschedules. */
export const ZUpdatePostInput = z
  .strictObject({
    content: ZPostFields.content.optional(),
    connectionIds: ZPostFields.connectionIds.optional(),
    scheduledAt: ZPostFields.scheduledAt
      .nullable()
      .optional()
      .describe('The new publishing time, ISO 8601 with offset (up to 5 min in the past becomes now); null turns the post back into a draft'),
    mediaUrls: ZPostFields.mediaUrls.optional(),
    mediaIds: ZPostFields.mediaIds.optional(),
    platformSettings: ZPostFields.platformSettings
      .nullable()
      .optional()
      .describe(
        'Replaces every platform’s settings (same form as on create); null removes them all. Absent: kept, except those of a platform no longer targeted',
      ),
    variants: ZPostFields.variants
      .nullable()
      .optional()
      .describe('Replaces the text per platform (same form as on create); null removes every variant, so content goes everywhere'),
    requireApproval: ZPostFields.requireApproval.optional(),
    firstComment: ZPostFields.firstComment.nullable().optional().describe('Replaces the first comment; null removes it'),
    parts: ZPostFields.parts.optional().describe('Replaces the thread’s later parts (same form as on create); [] makes it a single post'),
  })
  .meta({ example: { content: 'Our autumn menu is here: pumpkin spice is back from Tuesday.', scheduledAt: '2026-11-25T09:00:00Z' } });
export type UpdatePostInput = z.infer<typeof ZUpdatePostInput>;

export const ZListPostsQuery = z.strictObject({
  status: z.enum(POST_STATUSES).optional().describe('Only posts in this status'),
  platform: z.enum(PLATFORMS).optional().describe('Only posts with a target on this platform'),
  from: ZTimestamp.optional().describe('Only posts scheduled at or after this time (a lower bound on scheduledAt, ISO 8601 with offset)'),
  to: ZTimestamp.optional().describe('Only posts scheduled at or before this time (an upper bound on scheduledAt, ISO 8601 with offset)'),
  alert: ZAlertFilter.optional(),
  search: ZText.trim().min(1).max(200).optional().describe('Only posts whose text (or a variant) contains this, case-insensitive'),
  page: z.number().int().min(1).default(1).describe('Page number, from 1'),
  limit: z.number().int().min(1).max(200).default(50).describe('Posts per page (1–200)'),
});
export type ListPostsQuery = z.infer<typeof ZListPostsQuery>;
