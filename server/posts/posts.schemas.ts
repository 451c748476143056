// Wire schemas of the posts routes (REST, tRPC, tools share them).
import { z } from 'zod';
import { PLATFORMS } from '@/server/shared/platforms';
import { ZPlatform } from '@/server/connections/connections.schemas';
import { ZNullableTimestamp, ZText, ZTimestamp } from '@/server/shared/schemas';

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
    kind: z.enum(ALERT_KINDS),
    reason: z.string().describe('Why the post needs attention, in words'),
    action: z
      .enum(ALERT_ACTIONS)
      .describe(
        'The one action that resolves it: publish_now (POST /posts/{id}/publish), review (a member approves or rejects), reschedule (PATCH scheduledAt)',
      ),
    since: z.string().describe('When the post became overdue (its scheduled time) or last made progress'),
  })
  .meta({ id: 'PostAlert' });
export type PostAlert = z.infer<typeof ZPostAlert>;

export const ZAlertFilter = z.enum(['any', ...ALERT_KINDS]).describe('Only posts with an alert: any, overdue or stuck');
export type AlertFilter = z.infer<typeof ZAlertFilter>;

export const ZTarget = z
  .object({
    id: z.uuid(),
    connectionId: z.uuid(),
    platform: ZPlatform,
    status: z.enum(TARGET_STATUSES).describe('pending → publishing → published | failed'),
    postedId: z.string().nullable(),
    permalink: z.string().nullable(),
    error: z.string().nullable().describe('The platform’s error text, verbatim'),
    attempts: z.number().int(),
    publishedAt: ZNullableTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: 'Target' });

const ZVariants = z.partialRecord(
  ZPlatform,
  z.strictObject({ content: ZText.min(1).max(MAX_CONTENT).describe('The text for that platform instead of content') }),
);

export const ZPostBase = z.object({
  id: z.uuid(),
  content: z.string(),
  variants: ZVariants.nullable(),
  mediaUrls: z.array(z.string()),
  platforms: z.array(ZPlatform),
  connectionIds: z.array(z.uuid()),
  status: z.enum(POST_STATUSES),
  approvalStatus: z.enum(APPROVAL_STATUSES),
  scheduledAt: ZNullableTimestamp,
  queued: z.boolean().describe('true when the posting queue placed the post (its time is a queue slot)'),
  publishedAt: ZNullableTimestamp,
  platformSettings: z.record(z.string(), z.record(z.string(), z.unknown())).nullable(),
  platformPostIds: z.record(z.string(), z.string()).nullable().describe('Map of connectionId → id of the post on that platform; null until something shipped'),
  error: z.string().nullable().describe('Summary of failed targets ("platform: error" per failed target); null until something failed'),
  alert: ZPostAlert.nullable().describe(
    'Set while the post is overdue (past its time, not delivered) or stuck in publishing: the reason and the one action that resolves it',
  ),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});
export const ZPostListRow = ZPostBase.meta({ id: 'PostListRow' });
export const ZPost = ZPostBase.extend({ targets: z.array(ZTarget) }).meta({ id: 'Post' });
export type PostDto = z.infer<typeof ZPost>;
export type PostListRowDto = z.infer<typeof ZPostListRow>;
export type TargetDto = z.infer<typeof ZTarget>;

export const ZPostFields = {
  content: ZText.min(1).max(MAX_CONTENT).describe('The text for every target; a platform with a lower limit takes a variant'),
  connectionIds: z.array(ZText.min(1).max(100)).min(1).max(MAX_CONNECTIONS).describe('Accounts to post to: connection ids from connections_list'),
  scheduledAt: ZTimestamp.describe('When to publish, ISO 8601 with offset; absent: a draft'),
  /** https is checked by the media service, which names the refused URL (MEDIA_URL_REFUSED). */
  mediaUrls: z.array(ZText.min(1).max(2048)).max(MAX_MEDIA).describe('Public https URLs of images or videos to attach'),
  mediaIds: z.array(ZText.min(1).max(100)).max(MAX_MEDIA).describe('Ready media asset ids (media_upload_url, PUT, media_complete)'),
  /** Checked key by key by the service (PLATFORM_SETTING_UNKNOWN with the path). */
  platformSettings: z.record(ZText, z.unknown()).describe('Options per targeted platform, e.g. { "tiktok": { "privacy": "public" } }'),
  variants: ZVariants.describe('Text per platform instead of content, e.g. { "twitter": { "content": "…" } }'),
  requireApproval: z.boolean().describe('true: a member must approve the post before it publishes'),
};

export const ZCreatePostInput = z.strictObject({
  content: ZPostFields.content,
  connectionIds: ZPostFields.connectionIds,
  scheduledAt: ZPostFields.scheduledAt.optional(),
  mediaUrls: ZPostFields.mediaUrls.optional(),
  mediaIds: ZPostFields.mediaIds.optional(),
  platformSettings: ZPostFields.platformSettings.optional(),
  variants: ZPostFields.variants.optional(),
  requireApproval: ZPostFields.requireApproval.optional(),
  queue: z
    .literal(true)
    .optional()
    .describe('true: publish at the next free slot of the posting queue shared by every account (GET /queue); send no scheduledAt'),
});
export type CreatePostInput = z.infer<typeof ZCreatePostInput>;

/** PATCH: the same fields, all optional; only sent fields change. scheduledAt null unschedules. */
export const ZUpdatePostInput = z.strictObject({
  content: ZPostFields.content.optional(),
  connectionIds: ZPostFields.connectionIds.optional(),
  scheduledAt: ZPostFields.scheduledAt.nullable().optional(),
  mediaUrls: ZPostFields.mediaUrls.optional(),
  mediaIds: ZPostFields.mediaIds.optional(),
  platformSettings: ZPostFields.platformSettings.nullable().optional(),
  variants: ZPostFields.variants.nullable().optional(),
  requireApproval: ZPostFields.requireApproval.optional(),
});
export type UpdatePostInput = z.infer<typeof ZUpdatePostInput>;

export const ZListPostsQuery = z.strictObject({
  status: z.enum(POST_STATUSES).optional().describe('Only posts in this status'),
  platform: z.enum(PLATFORMS).optional().describe('Only posts with a target on this platform'),
  from: ZTimestamp.optional().describe('Only posts created at or after this time (ISO 8601)'),
  to: ZTimestamp.optional().describe('Only posts created before this time (ISO 8601)'),
  alert: ZAlertFilter.optional(),
  search: ZText.trim().min(1).max(200).optional().describe('Only posts whose text (or a variant) contains this, case-insensitive'),
  page: z.coerce.number().int().min(1).default(1).describe('Page number, from 1'),
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('Posts per page (1–200)'),
});
export type ListPostsQuery = z.infer<typeof ZListPostsQuery>;
