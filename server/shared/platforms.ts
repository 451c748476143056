// The platforms Herald publishes to. A primitive every layer names (connections, posts, the
// publishing port, the catalogue of what each platform accepts), so it lives here, below all
// of them, and imports nothing from Herald.
export const PLATFORMS = [
  'instagram',
  'facebook',
  'linkedin',
  'twitter',
  'threads',
  'tiktok',
  'youtube',
  'pinterest',
  'google_business',
  'bluesky',
  'mastodon',
  'reddit',
  'telegram',
  'discord',
  'slack',
  'devto',
  'ghost',
  'instagram_login',
  'lemmy',
  'listmonk',
  'hashnode',
  'medium',
  'wordpress',
  'tumblr',
  'nostr',
  'wordpress_com',
  'vk',
  'twitch',
  'kick',
  'dribbble',
  'farcaster',
] as const;
export type Platform = (typeof PLATFORMS)[number];

export function isPlatform(value: string): value is Platform {
  return (PLATFORMS as readonly string[]).includes(value);
}
