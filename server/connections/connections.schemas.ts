import { z } from 'zod';
import { ZNullableTimestamp, ZTimestamp } from '@/server/shared/schemas';
import { PLATFORMS } from '@/server/shared/platforms';

export const ZPlatform = z.enum(PLATFORMS);

export const TOKEN_HEALTH = ['valid', 'expiring_soon', 'expired', 'unknown'] as const;
export type TokenHealth = (typeof TOKEN_HEALTH)[number];

export const ZConnection = z
  .object({
    id: z.uuid(),
    platform: ZPlatform,
    provider: z.enum(['sandbox', 'live']),
    accountName: z.string(),
    displayName: z.string(),
    avatarUrl: z.string().nullable(),
    status: z.enum(['active', 'inactive']),
    tokenHealth: z.enum(TOKEN_HEALTH),
    tokenExpiresAt: ZNullableTimestamp,
    lastError: z.string().nullable(),
    lastErrorAt: ZNullableTimestamp,
    lastSuccessfulPostAt: ZNullableTimestamp,
    createdAt: ZTimestamp,
  })
  .meta({ id: 'Connection' });
export type ConnectionDto = z.infer<typeof ZConnection>;
