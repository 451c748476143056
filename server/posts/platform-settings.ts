// platformSettings: only the contract's keys, per targeted platform, with their value types.
// The keys and their schemas are the platform catalogue's (server/platforms/catalogue/), the
// same ones delivery hands the adapters typed. Each key is checked on its own so a refusal
// names its path: anything else is PLATFORM_SETTING_UNKNOWN with `field` = the offending path.
import type { z } from 'zod';
import { isPlatform, type Platform } from '@/server/shared/platforms';
import { AppError } from '@/server/errors/app-error';
import { PLATFORM_CATALOGUE, type PlatformSettingsByPlatform } from '@/server/platforms/catalogue';

export type PlatformSettings = PlatformSettingsByPlatform;

function unknown(field: string, message: string): AppError {
  return new AppError('PLATFORM_SETTING_UNKNOWN', message, { field });
}

export function validatePlatformSettings(raw: Record<string, unknown> | null | undefined, targeted: readonly Platform[]): PlatformSettings | null {
  if (raw === null || raw === undefined) return null;
  const out: Partial<Record<Platform, Record<string, unknown>>> = {};
  for (const [platform, settings] of Object.entries(raw)) {
    const path = `platformSettings.${platform}`;
    if (!isPlatform(platform)) throw unknown(path, `"${platform}" is not a platform`);
    if (!targeted.includes(platform)) throw unknown(path, `The post does not target ${platform}`);
    if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) throw unknown(path, `${path} must be an object`);
    const shape: Record<string, z.ZodType> = PLATFORM_CATALOGUE[platform].settings.shape;
    const clean: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(settings as Record<string, unknown>)) {
      const field = `${path}.${key}`;
      // Own keys only: "constructor" or "toString" are not settings either.
      if (!Object.hasOwn(shape, key)) {
        const known = Object.keys(shape);
        throw unknown(field, known.length ? `${key} is not a ${platform} setting; known: ${known.join(', ')}` : `${platform} has no settings`);
      }
      const parsed = shape[key]!.safeParse(value);
      if (!parsed.success) throw unknown(field, `${field} has the wrong type or value: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      clean[key] = parsed.data;
    }
    out[platform] = clean;
  }
  // Each value passed its key's schema, which is the platform's settings schema key by key.
  return out as PlatformSettings;
}
