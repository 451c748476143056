import { z } from 'zod';
import { PLATFORMS } from '@/server/shared/platforms';
import { ZText } from '@/server/shared/schemas';

/** A connect session lives this long (contract: Limits → Connect session). */
export const CONNECT_SESSION_MS = 15 * 60_000;

export const ZConnectPlatform = z.enum(PLATFORMS);

/** POST /public/connect/{token}/session: no body, or an empty object. */
export const ZMintSessionBody = z.strictObject({});

/** POST /public/connect/{token}/authorize */
export const ZAuthorizeBody = z.strictObject({
  session: ZText.min(1).max(100),
  platform: ZConnectPlatform,
});

/** POST /public/connect/{token}/choose */
export const ZChooseBody = z.strictObject({
  accountId: ZText.min(1).max(200),
});

export interface ConnectPageData {
  /** `timeZone` is a Herald extension: the page writes its times in the workspace's zone. */
  workspace: { id: string; name: string; timeZone: string };
  brand: { name: string; logoUrl: string | null };
  expiresAt: string;
  channels: { platform: (typeof PLATFORMS)[number]; configured: boolean }[];
  connections: { id: string; platform: string; accountName: string; displayName: string; avatarUrl: string | null; status: string }[];
  telegramBotUsername: string | null;
}
