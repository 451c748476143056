import { z } from 'zod';
import { ZScope } from '@/server/auth/scopes';
import { ZNullableTimestamp, ZText, ZTimestamp } from '@/server/shared/schemas';

export const ZMintKeyInput = z.strictObject({
  name: ZText.trim().min(1).max(80),
  scopes: z.array(ZScope).min(1).optional(),
  expiresAt: ZTimestamp.nullable().optional(),
});
export type MintKeyInput = z.infer<typeof ZMintKeyInput>;

export const ZMintedKey = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(ZScope),
    expiresAt: ZNullableTimestamp,
    createdAt: ZTimestamp,
    lastUsedAt: ZNullableTimestamp,
    secret: z.string().describe('The whole key. Shown once: Herald stores only its hash.'),
  })
  .meta({ id: 'MintedKey' });
export type MintedKeyDto = z.infer<typeof ZMintedKey>;
