import { z } from 'zod';
import { ZScope } from '@/server/auth/scopes';
import { ZNullableTimestamp, ZText, ZTimestamp } from '@/server/shared/schemas';

export const ZMintKeyInput = z.strictObject({
  name: ZText.trim().min(1).max(80).describe('A name to recognise the key by in lists'),
  scopes: z.array(ZScope).min(1).optional().describe('What the key may do; absent: the caller’s own scopes except workspaces:manage'),
  expiresAt: ZTimestamp.nullable().optional().describe('When the key stops working (ISO 8601); absent or null: never'),
});
export type MintKeyInput = z.infer<typeof ZMintKeyInput>;

/** What every key record says, minted or listed. */
const keyFields = {
  id: z.uuid().describe('The key, for DELETE /api-keys/{id}'),
  name: z.string().describe('The name given when the key was minted'),
  prefix: z.string().describe('The public start of the key (`sk_live_<prefix>…`), to recognise it'),
  scopes: z.array(ZScope).describe('What the key may do; a route outside them answers 403 SCOPE_MISSING'),
  expiresAt: ZNullableTimestamp.describe('When the key stops working, in ISO 8601; null: never'),
  createdAt: ZTimestamp.describe('When the key was minted, in ISO 8601'),
  lastUsedAt: ZNullableTimestamp.describe('When the key last authenticated a request, to the minute (written at most once a minute); null until first used'),
};

export const ZMintedKey = z
  .object({ ...keyFields, secret: z.string().describe('The whole key. Shown once: Herald stores only its hash.') })
  .meta({ id: 'MintedKey', description: 'A key just minted: the record and, this once, the secret.' });
export type MintedKeyDto = z.infer<typeof ZMintedKey>;

/** A key as listed: everything but the secret, which Herald never stores. */
export const ZApiKey = z
  .object({ ...keyFields, assistant: z.boolean().describe('Issued through an assistant’s sign-in (an “assistant connection”)') })
  .meta({ id: 'ApiKey', description: 'An API key of the workspace, as listed: everything but the secret, which Herald never stores.' });
export type ApiKeyDto = z.infer<typeof ZApiKey>;
