// A workspace's settings: its name, the time zone it schedules and shows times in, whether its
// scheduled posts wait for approval by default, whether demo accounts may be connected, whether
// links in its posts are tracked (and the UTM parameters they get), the time within which comments
// should be answered (responseTargetMinutes), and the brand its clients see on connect,
// review and report links. Every change is recorded in the audit trail the app keeps (the
// security events: who changed what from what to what, when, from where), in the same
// transaction as the change. Owners and admins change settings (scope workspaces:manage);
// everyone in the workspace reads them.
import { z } from 'zod';
import type { Actor } from '@/server/auth/actor';
import { BRAND_NAME_MAX, ZLogoUrl } from '@/server/client-links/client-links.schemas';
import { db, type Tx } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { actorFields, namesIn, recordSecurityEvent } from '@/server/security-events/security-events';
import { ZText, ZTimestamp } from '@/server/shared/schemas';
import { canonicalTimeZone, ZTimeZone } from '@/server/shared/time-zone';
import { ZUtmTemplate } from '@/server/links/links.schemas';
import { RESPONSE_TARGET_MAX, RESPONSE_TARGET_MIN } from '@/server/inbox/inbox.schemas';

export const ZBrandSetting = z.object({
  name: z.string().nullable().describe('The brand name clients see; null: the agency’s brand, else the agency’s name'),
  logoUrl: z.string().nullable().describe('https URL of the logo clients see; null: the agency’s logo, else none'),
});

export const ZWorkspaceSettings = z
  .object({
    workspaceId: z.uuid().describe('The workspace these settings belong to'),
    name: z.string().describe('The workspace’s display name'),
    timeZone: z.string().describe('IANA time zone the app schedules and shows times in'),
    requireApproval: z.boolean().describe('true: every scheduled post waits for a member’s approval before it is published'),
    brand: ZBrandSetting.describe('The brand set on this workspace itself (null fields: not set here)'),
    effectiveBrand: z
      .object({
        name: z.string().describe('The name a new client link shows'),
        logoUrl: z.string().nullable().describe('The logo a new client link shows, if any'),
        from: z.enum(['workspace', 'agency', 'name']).describe('Where it comes from: this workspace’s brand, its agency’s, or the agency’s name'),
      })
      .describe('What a connect, review or report link issued now shows when the request names no brand'),
    queuePaused: z.boolean().describe('true while the posting queue is paused (its posts are held)'),
    demoAccounts: z.boolean().describe('true: demo accounts allowed here'),
    requireReplyApproval: z.boolean().describe('true: inbox replies written by members and API keys wait for approval before they go out'),
    trackLinks: z
      .boolean()
      .describe('true: links in posts created or edited from now on become Herald’s short links, with utmTemplate’s parameters, and their clicks are counted'),
    utmTemplate: z.string().describe('The UTM parameters added to each tracked link; {network} and {post} are replaced'),
    responseTargetMinutes: z
      .number()
      .int()
      .describe('The time within which the team means to answer a comment, in minutes (GET /inbox/response-times: the share answered within it)'),
  })
  .meta({
    id: 'WorkspaceSettings',
    description: 'A workspace’s own settings: name, time zone, approval default, brand, queue state.',
    example: {
      workspaceId: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
      name: 'Acme Coffee',
      timeZone: 'Europe/Berlin',
      requireApproval: true,
      brand: { name: null, logoUrl: null },
      effectiveBrand: { name: 'Northwind Agency', logoUrl: 'https://cdn.northwind.example/logo.png', from: 'agency' },
      queuePaused: false,
      demoAccounts: true,
      requireReplyApproval: false,
      trackLinks: true,
      utmTemplate: 'utm_source={network}&utm_medium=social&utm_campaign=herald',
      responseTargetMinutes: 240,
    },
  });
export type WorkspaceSettingsDto = z.infer<typeof ZWorkspaceSettings>;

export const ZUpdateSettingsInput = z
  .strictObject({
    name: ZText.trim().min(1).max(80).optional().describe('Display name').meta({ example: 'Acme Coffee' }),
    timeZone: ZTimeZone.optional().describe('IANA time zone; scheduled posts keep their instant'),
    requireApproval: z.boolean().optional().describe('true: scheduled posts wait for approval'),
    demoAccounts: z.boolean().optional().describe('false: demo accounts off'),
    requireReplyApproval: z.boolean().optional().describe('true: members’ inbox replies wait for approval'),
    trackLinks: z
      .boolean()
      .optional()
      .describe('true: links in posts created or edited from now on (their text, a thread’s later parts, the first comment) become tracked short links'),
    utmTemplate: ZUtmTemplate.optional(),
    responseTargetMinutes: z
      .number()
      .int()
      .min(RESPONSE_TARGET_MIN)
      .max(RESPONSE_TARGET_MAX)
      .optional()
      .describe(`Target time for a first reply to a comment, in minutes (${RESPONSE_TARGET_MIN} to ${RESPONSE_TARGET_MAX}, a week)`),
    brand: z
      .strictObject({
        name: ZText.trim().min(1).max(BRAND_NAME_MAX).nullable().optional().describe('Brand name; null clears'),
        logoUrl: ZLogoUrl.nullable().optional().describe('https logo URL; null clears'),
      })
      .optional()
      .describe('Brand on client links issued from now on'),
  })
  .meta({ example: { requireApproval: true, brand: { name: 'Northwind Agency' } } });
export type UpdateSettingsInput = z.infer<typeof ZUpdateSettingsInput>;

const SETTINGS_SELECT = {
  id: true,
  name: true,
  timeZone: true,
  requireApproval: true,
  brandName: true,
  brandLogoUrl: true,
  queuePausedAt: true,
  demoAccounts: true,
  requireReplyApproval: true,
  trackLinks: true,
  utmTemplate: true,
  responseTargetMinutes: true,
  managedBy: { select: { name: true, brandName: true, brandLogoUrl: true } },
} as const;

type SettingsRow = {
  id: string;
  name: string;
  timeZone: string;
  requireApproval: boolean;
  brandName: string | null;
  brandLogoUrl: string | null;
  queuePausedAt: Date | null;
  demoAccounts: boolean;
  requireReplyApproval: boolean;
  trackLinks: boolean;
  utmTemplate: string;
  responseTargetMinutes: number;
  managedBy: { name: string; brandName: string | null; brandLogoUrl: string | null } | null;
};

/**
 * The brand a client link shows when its request names none: the workspace's own, else its
 * agency's, else the agency's name (a workspace without an agency is its own agency).
 */
export function brandOf(w: Pick<SettingsRow, 'name' | 'brandName' | 'brandLogoUrl' | 'managedBy'>): WorkspaceSettingsDto['effectiveBrand'] {
  if (w.brandName) return { name: w.brandName, logoUrl: w.brandLogoUrl ?? w.managedBy?.brandLogoUrl ?? null, from: 'workspace' };
  const agency = w.managedBy ?? { name: w.name, brandName: null, brandLogoUrl: null };
  if (agency.brandName) return { name: agency.brandName, logoUrl: w.brandLogoUrl ?? agency.brandLogoUrl ?? null, from: 'agency' };
  return { name: agency.name.slice(0, BRAND_NAME_MAX), logoUrl: w.brandLogoUrl ?? agency.brandLogoUrl ?? null, from: 'name' };
}

/** The default brand of a new client link for this workspace, read in the issuer's transaction. */
export async function defaultBrand(tx: Pick<Tx, 'workspace'>, workspaceId: string): Promise<{ name: string; logoUrl: string | null }> {
  const row = await tx.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: SETTINGS_SELECT });
  const { name, logoUrl } = brandOf(row);
  return { name, logoUrl };
}

function toDto(w: SettingsRow): WorkspaceSettingsDto {
  return {
    workspaceId: w.id,
    name: w.name,
    timeZone: w.timeZone,
    requireApproval: w.requireApproval,
    brand: { name: w.brandName, logoUrl: w.brandLogoUrl },
    effectiveBrand: brandOf(w),
    queuePaused: w.queuePausedAt !== null,
    demoAccounts: w.demoAccounts,
    requireReplyApproval: w.requireReplyApproval,
    trackLinks: w.trackLinks,
    utmTemplate: w.utmTemplate,
    responseTargetMinutes: w.responseTargetMinutes,
  };
}

export async function readSettings(workspaceId: string): Promise<WorkspaceSettingsDto> {
  return toDto(await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: SETTINGS_SELECT }));
}

type Change = { from: unknown; to: unknown };

/**
 * Applies the fields sent (only those), and records one audit event listing each field that
 * really changed with its old and new value. Nothing changed: nothing written, nothing recorded.
 */
export async function updateSettings(actor: Actor, input: UpdateSettingsInput): Promise<WorkspaceSettingsDto> {
  const patch = ZUpdateSettingsInput.parse(input);
  return db.$transaction(async (tx) => {
    // The row lock serialises two saves, so each event's `from` is what the other wrote.
    await tx.$queryRaw`SELECT 1 FROM "Workspace" WHERE "id" = ${actor.workspaceId}::uuid FOR UPDATE`;
    const before = await tx.workspace.findUniqueOrThrow({ where: { id: actor.workspaceId }, select: SETTINGS_SELECT });
    const next = {
      name: patch.name ?? before.name,
      // One spelling per zone: the current IANA name (Asia/Calcutta is stored as Asia/Kolkata).
      timeZone: patch.timeZone !== undefined ? canonicalTimeZone(patch.timeZone) : before.timeZone,
      requireApproval: patch.requireApproval ?? before.requireApproval,
      demoAccounts: patch.demoAccounts ?? before.demoAccounts,
      requireReplyApproval: patch.requireReplyApproval ?? before.requireReplyApproval,
      trackLinks: patch.trackLinks ?? before.trackLinks,
      utmTemplate: patch.utmTemplate ?? before.utmTemplate,
      responseTargetMinutes: patch.responseTargetMinutes ?? before.responseTargetMinutes,
      brandName: patch.brand?.name !== undefined ? patch.brand.name : before.brandName,
      brandLogoUrl: patch.brand?.logoUrl !== undefined ? patch.brand.logoUrl : before.brandLogoUrl,
    };
    const changes: Record<string, Change> = {};
    for (const key of Object.keys(next) as (keyof typeof next)[]) {
      if (next[key] !== before[key]) changes[key] = { from: before[key], to: next[key] };
    }
    if (Object.keys(changes).length === 0) return toDto(before);
    const after = await tx.workspace.update({ where: { id: actor.workspaceId }, data: next, select: SETTINGS_SELECT });
    await recordSecurityEvent({ kind: 'settings.changed', workspaceId: actor.workspaceId, ...actorFields(actor), detail: { changes } }, tx);
    return toDto(after);
  });
}

export const ZSettingsChange = z.object({
  id: z.uuid(),
  at: ZTimestamp,
  by: z.string().nullable().describe('The member’s email, or the key’s name'),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
});
export type SettingsChangeDto = z.infer<typeof ZSettingsChange>;

/** The workspace's settings changes, newest first: its audit trail for this page. */
export async function settingsHistory(actor: Actor, limit = 20): Promise<SettingsChangeDto[]> {
  if (!actor.scopes.includes('workspaces:manage')) throw new AppError('SCOPE_MISSING', 'Reading the settings history needs workspaces:manage');
  const rows = await db.securityEvent.findMany({
    where: { workspaceId: actor.workspaceId, kind: 'settings.changed' },
    orderBy: { createdAt: 'desc' },
    take: limit,
  });
  const names = await namesIn(rows);
  return rows.map((r) => ({
    id: r.id,
    at: r.createdAt.toISOString(),
    by: names.actor(r),
    changes: ((r.detail as { changes?: Record<string, Change> }).changes ?? {}) as Record<string, Change>,
  }));
}
