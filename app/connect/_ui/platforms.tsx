// Platform names and badges as the client pages show them. Badge colours are each brand's
// own, dark enough for white text (WCAG AA).
import styles from './client-page.module.css';

export const PLATFORM_LABELS: Record<string, string> = {
  instagram: 'Instagram',
  facebook: 'Facebook',
  linkedin: 'LinkedIn',
  twitter: 'X',
  threads: 'Threads',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  google_business: 'Google Business Profile',
  pinterest: 'Pinterest',
  reddit: 'Reddit',
  telegram: 'Telegram',
  discord: 'Discord',
  slack: 'Slack',
  mastodon: 'Mastodon',
  bluesky: 'Bluesky',
  devto: 'Dev.to',
  ghost: 'Ghost',
  instagram_login: 'Instagram',
  lemmy: 'Lemmy',
  listmonk: 'Listmonk',
  hashnode: 'Hashnode',
  medium: 'Medium',
  wordpress: 'WordPress',
  tumblr: 'Tumblr',
  nostr: 'Nostr',
  wordpress_com: 'WordPress.com',
  vk: 'VK',
  twitch: 'Twitch',
  kick: 'Kick',
  dribbble: 'Dribbble',
  farcaster: 'Farcaster',
};

const BADGES: Record<string, { background: string; letter: string }> = {
  instagram: { background: '#c13584', letter: 'IG' },
  facebook: { background: '#1463c9', letter: 'f' },
  linkedin: { background: '#0a66c2', letter: 'in' },
  twitter: { background: '#000000', letter: 'X' },
  threads: { background: '#000000', letter: '@' },
  tiktok: { background: '#111111', letter: 'TT' },
  youtube: { background: '#cc0000', letter: 'YT' },
  google_business: { background: '#1967d2', letter: 'G' },
  pinterest: { background: '#bd081c', letter: 'P' },
  reddit: { background: '#d93a00', letter: 'r/' },
  telegram: { background: '#1c75a8', letter: 'TG' },
  discord: { background: '#5865f2', letter: 'DC' },
  slack: { background: '#4a154b', letter: 'SL' },
  mastodon: { background: '#563acc', letter: 'M' },
  bluesky: { background: '#0560d4', letter: 'B' },
  devto: { background: '#000000', letter: 'DEV' },
  ghost: { background: '#15171a', letter: 'GH' },
  instagram_login: { background: '#c13584', letter: 'IG' },
  lemmy: { background: '#00875a', letter: 'L' },
  listmonk: { background: '#0055d4', letter: 'LM' },
  hashnode: { background: '#2962ff', letter: 'HN' },
  medium: { background: '#000000', letter: 'M' },
  wordpress: { background: '#21759b', letter: 'W' },
  tumblr: { background: '#001935', letter: 't' },
  nostr: { background: '#8e30eb', letter: 'N' },
  wordpress_com: { background: '#3858e9', letter: 'W' },
  vk: { background: '#0062d1', letter: 'VK' },
  twitch: { background: '#772ce8', letter: 'Tw' },
  kick: { background: '#0b7a12', letter: 'K' },
  dribbble: { background: '#c32361', letter: 'Dr' },
  farcaster: { background: '#855dcd', letter: 'F' },
};

export function PlatformBadge({ platform }: { platform: string }) {
  const badge = BADGES[platform] ?? { background: '#4f5663', letter: '?' };
  return (
    <span className={styles.badge} style={{ background: badge.background }} aria-hidden="true">
      {badge.letter}
    </span>
  );
}
