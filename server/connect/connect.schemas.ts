import { z } from 'zod';
import { PLATFORMS } from '@/server/shared/platforms';
import { ZText } from '@/server/shared/schemas';
import type { ConnectField } from './oauth/oauth-provider';

/** A connect session lives this long (contract: Limits → Connect session). */
export const CONNECT_SESSION_MS = 15 * 60_000;

export const ZConnectPlatform = z.enum(PLATFORMS);

/** POST /public/connect/{token}/session: no body, or an empty object. */
export const ZMintSessionBody = z.strictObject({});

/** POST /public/connect/{token}/authorize */
export const ZAuthorizeBody = z.strictObject({
  session: ZText.min(1).max(100),
  platform: ZConnectPlatform,
  /** Herald extension: the channel's `fields` as the client filled them in (a Bluesky app password, a Mastodon server). */
  values: z.record(ZText.min(1).max(64), ZText.max(2000)).optional(),
  /** Herald extension: true connects a demo account (it publishes nowhere) where the channel offers one (`demo`). */
  demo: z.boolean().optional(),
});

/** POST /public/connect/{token}/approval: no body, or an empty object (the browser's session names the attempt). */
export const ZCheckApprovalBody = z.strictObject({});

/** POST /public/connect/{token}/choose */
export const ZChooseBody = z.strictObject({
  accountId: ZText.min(1).max(200),
});

export interface ConnectPageData {
  /** `timeZone` is a Herald extension: the page writes its times in the workspace's zone. */
  workspace: { id: string; name: string; timeZone: string };
  brand: { name: string; logoUrl: string | null };
  expiresAt: string;
  /**
   * `connectWith`, `fields`, `instructions` and `demo` are Herald extensions: how a real account
   * connects (the platform's consent page, values typed here; `sandbox` when only a demo
   * account can be connected), what to ask first, and whether a demo account is offered too.
   */
  channels: {
    platform: (typeof PLATFORMS)[number];
    configured: boolean;
    connectWith: 'oauth' | 'credentials' | 'approval' | 'sandbox' | null;
    fields: ConnectField[];
    instructions: string | null;
    demo: boolean;
  }[];
  connections: { id: string; platform: string; accountName: string; displayName: string; avatarUrl: string | null; status: string }[];
  telegramBotUsername: string | null;
  /** Herald extension: the workspace issued this link to itself (a member connecting from the app), not to a client. */
  selfIssued: boolean;
}
