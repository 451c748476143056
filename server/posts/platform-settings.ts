// platformSettings: only the contract's keys, per targeted platform, with their value types.
// Anything else is PLATFORM_SETTING_UNKNOWN with `field` = the offending path.
import { z } from 'zod';
import { PLATFORMS, type Platform } from '@/server/connections/connections.schemas';
import { AppError } from '@/server/errors/app-error';
import { storableText, ZText } from '@/server/http/schemas';

const tweetId = ZText.regex(/^\d{1,20}$/, 'a tweet id (digits)');

export const PLATFORM_SETTING_SCHEMAS: Record<Platform, Record<string, z.ZodType>> = {
  instagram: {
    videoType: z.enum(['feed', 'reel', 'story']),
    shareToFeed: z.boolean(),
    coverUrl: z.url({ protocol: /^https$/ }).max(2048).check(storableText),
    firstComment: ZText.min(1).max(2200),
  },
  facebook: { firstComment: ZText.min(1).max(8000) },
  linkedin: { visibility: z.enum(['PUBLIC', 'CONNECTIONS']) },
  twitter: { replyTo: tweetId, quoteTweet: tweetId },
  threads: {},
  tiktok: {},
};

export type PlatformSettings = Partial<Record<Platform, Record<string, unknown>>>;

function unknown(field: string, message: string): AppError {
  return new AppError('PLATFORM_SETTING_UNKNOWN', message, { field });
}

export function validatePlatformSettings(raw: Record<string, unknown> | null | undefined, targeted: readonly Platform[]): PlatformSettings | null {
  if (raw === null || raw === undefined) return null;
  const out: PlatformSettings = {};
  for (const [platform, settings] of Object.entries(raw)) {
    const path = `platformSettings.${platform}`;
    if (!(PLATFORMS as readonly string[]).includes(platform)) throw unknown(path, `"${platform}" is not a platform`);
    const p = platform as Platform;
    if (!targeted.includes(p)) throw unknown(path, `The post does not target ${platform}`);
    if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) throw unknown(path, `${path} must be an object`);
    const schemas = PLATFORM_SETTING_SCHEMAS[p];
    const clean: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(settings as Record<string, unknown>)) {
      const schema = schemas[key];
      const field = `${path}.${key}`;
      if (!schema) {
        const known = Object.keys(schemas);
        throw unknown(field, known.length ? `${key} is not a ${platform} setting; known: ${known.join(', ')}` : `${platform} has no settings`);
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) throw unknown(field, `${field} has the wrong type or value: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      clean[key] = parsed.data;
    }
    out[p] = clean;
  }
  return out;
}
