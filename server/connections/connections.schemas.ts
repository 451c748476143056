import { z } from 'zod';
import { ZNullableTimestamp, ZTimestamp } from '@/server/shared/schemas';
import { PLATFORMS } from '@/server/shared/platforms';

export const ZPlatform = z.enum(PLATFORMS);

export const TOKEN_HEALTH = ['valid', 'expiring_soon', 'expired', 'unknown'] as const;
export type TokenHealth = (typeof TOKEN_HEALTH)[number];

export const ZConnection = z
  .object({
    id: z.uuid().describe('The connection id posts take in connectionIds'),
    platform: ZPlatform.describe('The platform of the account'),
    provider: z.enum(['sandbox', 'live']).describe('live: the real network; sandbox: a demo account that publishes nowhere'),
    accountName: z.string().describe('The account’s handle on the platform'),
    displayName: z.string().describe('The account’s display name'),
    avatarUrl: z.string().nullable().describe('The account’s picture, when the platform gives one'),
    status: z.enum(['active', 'inactive']).describe('inactive: disconnected in the app; posts to it are refused (CONNECTION_EXPIRED)'),
    tokenHealth: z.enum(TOKEN_HEALTH).describe('valid, expiring_soon, expired (reconnect in the app), or unknown (the platform states no expiry)'),
    tokenExpiresAt: ZNullableTimestamp.describe('When the platform’s grant expires; null when it does not say'),
    lastError: z.string().nullable().describe('The last delivery or refresh error, verbatim'),
    lastErrorAt: ZNullableTimestamp.describe('When lastError happened'),
    lastSuccessfulPostAt: ZNullableTimestamp.describe('When a post last landed on the account'),
    createdAt: ZTimestamp.describe('When the account was connected'),
  })
  .meta({ id: 'Connection', description: 'A social account connected to the workspace, and whether it can be published to.' });
export type ConnectionDto = z.infer<typeof ZConnection>;
