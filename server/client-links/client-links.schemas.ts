import { z } from 'zod';
import { MAX_WINDOW_DAYS, ZDay } from '@/server/shared/analytics-window';
import { ZText, ZTimestamp } from '@/server/shared/schemas';

export const CLIENT_LINK_KINDS = ['connect', 'review', 'report'] as const;
export type ClientLinkKind = (typeof CLIENT_LINK_KINDS)[number];

export const LINK_DEFAULT_DAYS = 7;
export const LINK_MAX_DAYS = 90;
export const BRAND_NAME_MAX = 80;
/** Longer logo URLs are not plausible image addresses; the cap keeps pages and rows small. */
export const LOGO_URL_MAX = 2048;

/**
 * The brand's logo: an https URL the client's browser loads directly (docs/decisions.md →
 * "Brand logos"). Herald never fetches it, so it needs no outbound check; it must be a plain
 * https URL without credentials.
 */
export const ZLogoUrl = ZText.max(LOGO_URL_MAX).refine(
  (value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' && !url.username && !url.password && url.hostname.length > 0;
    } catch {
      return false;
    }
  },
  { message: 'must be an https URL without credentials' },
);

export const ZClientLinkBody = z.strictObject({
  expiresInDays: z.number().int().min(1).max(LINK_MAX_DAYS).default(LINK_DEFAULT_DAYS).describe(`Days the link works (1–${LINK_MAX_DAYS})`),
  rotate: z.boolean().default(false).describe('true: revoke the workspace’s current link of this kind and issue a new one'),
  brand: z
    .strictObject({
      name: ZText.trim().min(1).max(BRAND_NAME_MAX).optional().describe('Agency name shown'),
      logoUrl: ZLogoUrl.optional().describe('https logo URL shown'),
    })
    .optional()
    .describe('The agency’s name and https logo shown on the client’s page; defaults to the agency workspace’s name'),
});
export type ClientLinkInput = z.infer<typeof ZClientLinkBody>;

export const REPORT_TITLE_MAX = 120;

/**
 * A report link's body: the link's own fields plus the report's range (days in the client
 * workspace's time zone, both included, at most a leap year) and an optional title.
 */
export const ZReportLinkBody = ZClientLinkBody.extend({
  from: ZDay.describe('First day, YYYY-MM-DD (workspace time zone)'),
  to: ZDay.describe(`Last day, included; at most ${MAX_WINDOW_DAYS} days`),
  title: ZText.trim().min(1).max(REPORT_TITLE_MAX).optional().describe('Report title'),
});
export type ReportLinkInput = z.infer<typeof ZReportLinkBody>;
/** What a report link carries beside the common fields. */
export interface ReportLinkRange {
  from: string;
  to: string;
  title: string | null;
}

export const ZClientLinkCreated = z
  .object({
    url: z.url().describe('The link to send the client. Shown once: Herald keeps only its hash, so no list shows it again'),
    expiresAt: ZTimestamp.describe('When the link stops working, in ISO 8601'),
    rotated: z.boolean().describe('True when the request asked to rotate: every earlier link of this kind was revoked first'),
  })
  .meta({ id: 'ClientLink', description: 'A no-login link just issued for the client: its URL, shown once, and when it stops working.' });
export type ClientLinkCreated = z.infer<typeof ZClientLinkCreated>;

export const ZBrand = z.object({
  name: z.string().describe('The agency name the client’s page shows'),
  logoUrl: z.string().nullable().describe('The https logo the client’s page shows; null: the name alone'),
});

/** A live link as listed: its token is never stored, so a list cannot show the URL again. */
export const ZClientLinkRecord = z
  .object({
    id: z.uuid().describe('The link, for DELETE /workspaces/{id}/links/{linkId}'),
    kind: z
      .enum(CLIENT_LINK_KINDS)
      .describe('connect: the client connects its accounts; review: the client approves or rejects posts; report: the client reads its post results'),
    brand: ZBrand.describe('The brand the client’s page shows, fixed when the link was issued'),
    expiresAt: ZTimestamp.describe('When the link stops working, in ISO 8601'),
    createdAt: ZTimestamp.describe('When the link was issued, in ISO 8601'),
  })
  .meta({ id: 'ClientLinkRecord', description: 'A live no-login link of the workspace, as listed (the URL is not kept, so it is not shown again).' });
export type ClientLinkRecord = z.infer<typeof ZClientLinkRecord>;
