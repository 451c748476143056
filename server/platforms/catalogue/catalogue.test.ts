// The catalogue and docs/platform-limits.md state the same numbers: each platform's section of
// the document must contain the phrases built from its catalogue entry.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { PLATFORMS, type Platform } from '@/server/shared/platforms';
import type { PublishRequest } from '../publisher';
import { PLATFORM_CATALOGUE, parseStoredSettings, type PlatformCatalogueEntry } from '.';
import { codePointLength, graphemeLength, mastodonLength, threadsLength, twitterWeightedLength, utf16Length, utf8ByteLength } from './text-length';

const MB = 1024 * 1024;
const GB = 1024 * MB;
const n = (value: number) => value.toLocaleString('en-US');
const minutes = (seconds: number) => `${seconds / 60} min`;
const required = (e: PlatformCatalogueEntry) => `| Media required | ${e.media.required ? 'yes' : 'no'}`;

const DOCUMENTED: Record<Platform, { heading: string; phrases: (e: PlatformCatalogueEntry) => string[] }> = {
  twitter: {
    heading: 'X (Twitter)',
    phrases: (e) => [
      `${e.text.maxChars} weighted characters`,
      `up to ${e.media.maxImages} photos`,
      `**or** ${e.media.maxVideos} video; not mixed`,
      `0.5 s to ${e.media.maxVideoSeconds} s`,
      `| Video size | ${e.media.maxVideoBytes / MB} MB`,
      required(e),
    ],
  },
  threads: {
    heading: 'Threads',
    phrases: (e) => [
      `| ${e.text.maxChars} characters`,
      `2 to ${e.media.maxItems} images, videos, or a mix`,
      `up to ${e.media.maxVideoSeconds} s`,
      `up to ${e.media.maxVideoBytes / GB} GB`,
      required(e),
    ],
  },
  linkedin: {
    heading: 'LinkedIn',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters`,
      `2 to ${e.media.maxImages} |`,
      `${e.media.maxVideos} per post, MP4, 3 s to ${minutes(e.media.maxVideoSeconds)}`,
      `to ${e.media.maxVideoBytes / MB} MB`,
      `| Images and video together | ${e.media.mixed ? 'yes' : 'no'}`,
      required(e),
    ],
  },
  instagram: {
    heading: 'Instagram',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters`,
      `up to ${e.media.maxItems} images, videos, or a mix`,
      `3 s to ${minutes(e.media.maxVideoSeconds)}, ${e.media.maxVideoBytes / MB} MB`,
      `| Story video | 3 s to ${e.media.story!.maxVideoSeconds} s, ${e.media.story!.maxVideoBytes / MB} MB`,
      '| Story | one image or one video',
      required(e),
    ],
  },
  facebook: {
    heading: 'Facebook (Pages)',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters`,
      `our rule allows ${e.media.maxImages}`,
      `| Video | ${e.media.maxVideos} per post`,
      `${e.media.maxVideoBytes / GB} GB`,
      required(e),
    ],
  },
  tiktok: {
    heading: 'TikTok',
    phrases: (e) => [
      `${n(e.text.maxChars)} UTF-16 code units`,
      `up to ${e.media.maxImages} per post`,
      `| Video | ${e.media.maxVideos} per post`,
      `up to ${e.media.maxVideoBytes / GB} GB, up to ${minutes(e.media.maxVideoSeconds)}`,
      required(e),
    ],
  },
  youtube: {
    heading: 'YouTube',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} UTF-8 bytes`,
      `${e.media.maxVideos} per post, no images; up to ${e.media.maxVideoBytes / GB} GB`,
      `up to ${minutes(e.media.maxVideoSeconds)} (12 hours) for a verified account`,
      `required (\`platformSettings.youtube.title\`)`,
      required(e),
    ],
  },
  reddit: {
    heading: 'Reddit',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters`,
      `${e.media.maxImages} per post, up to ${e.media.maxImageBytes! / MB} MB`,
      `| Video | ${e.media.maxVideos} per post, up to ${e.media.maxVideoBytes / GB} GB and up to ${minutes(e.media.maxVideoSeconds)}`,
      '(`platformSettings.reddit.posterUrl`, required with a video)',
      'required (`platformSettings.reddit.title`)',
      required(e),
    ],
  },
  pinterest: {
    heading: 'Pinterest',
    phrases: (e) => [
      `| ${e.text.maxChars} characters`,
      `${e.media.maxImages} image or ${e.media.maxVideos} video per pin`,
      `| up to ${e.media.maxImageBytes! / MB} MB`,
      `4 s to ${minutes(e.media.maxVideoSeconds)}, up to ${e.media.maxVideoBytes / GB} GB`,
      required(e),
    ],
  },
  google_business: {
    heading: 'Google Business Profile',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters`,
      `${e.media.maxImages} per post, by \`sourceUrl\``,
      `to ${e.media.maxImageBytes! / MB} MB`,
      required(e),
    ],
  },
  telegram: {
    heading: 'Telegram',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters`,
      `| ${n(e.text.maxCharsWithMedia!)} characters with a photo`,
      `2 to ${e.media.maxItems} photos and videos, mixed`,
      `${e.media.maxImageBytes! / MB} MB for photos, ${e.media.maxVideoBytes / MB} MB for other files`,
      required(e),
    ],
  },
  discord: {
    heading: 'Discord',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters`,
      `up to ${e.media.maxItems} per message, images and videos mixed`,
      `${e.media.maxVideoBytes / MB} MB per upload`,
      required(e),
    ],
  },
  twitch: {
    heading: 'Twitch',
    phrases: (e) => [`| ${e.text.maxChars} characters, a chat message or an announcement`, '| Media | none: chat takes text only', required(e)],
  },
  kick: {
    heading: 'Kick',
    phrases: (e) => [`| ${e.text.maxChars} characters`, '| Media | none: chat takes text only', required(e)],
  },
  dribbble: {
    heading: 'Dribbble',
    phrases: (e) => [
      `| Image | exactly ${e.media.maxImages}, 400x300 or 1600x1200 pixels, GIF, JPG or PNG, up to ${e.media.maxImageBytes! / MB} MB`,
      '| Title | required: the `title` setting, or the text',
      'up to 12',
      required(e),
    ],
  },
  slack: {
    heading: 'Slack',
    phrases: (e) => [`| ${n(e.text.maxChars)} characters`, `up to ${e.media.maxItems + 1} per message`, required(e)],
  },
  mastodon: {
    heading: 'Mastodon',
    phrases: (e) => [
      `| ${e.text.maxChars} characters on a stock server`,
      `up to ${e.media.maxImages} images, **or** ${e.media.maxVideos} video`,
      `images ${e.media.maxImageBytes! / MB} MB, videos ${e.media.maxVideoBytes / MB} MB`,
      required(e),
    ],
  },
  instagram_login: {
    heading: 'Instagram (Instagram Login)',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters`,
      `up to ${e.media.maxItems} images, videos, or a mix`,
      `3 s to ${minutes(e.media.maxVideoSeconds)}, ${e.media.maxVideoBytes / MB} MB`,
      `| Story video | 3 s to ${e.media.story!.maxVideoSeconds} s, ${e.media.story!.maxVideoBytes / MB} MB`,
      '| Story | one image or one video',
      required(e),
    ],
  },
  lemmy: {
    heading: 'Lemmy',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters (Markdown)`,
      `1 to 200 characters, required (\`platformSettings.lemmy.title\`)`,
      `${e.media.maxImages} per post, uploaded to the instance's pict-rs, up to ${e.media.maxImageBytes! / MB} MB`,
      required(e),
    ],
  },
  tumblr: {
    heading: 'Tumblr',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters (Herald's cap), one text block per line, each block up to 4,096 code points`,
      `${e.media.maxImages} per post (NPF allows 30 image blocks), uploaded as multipart parts, up to ${e.media.maxImageBytes! / MB} MB each`,
      `${e.media.maxVideos} uploaded video per post, up to ${e.media.maxVideoBytes / MB} MB and ${minutes(e.media.maxVideoSeconds)}`,
      `| Images and video together | ${e.media.mixed ? 'yes' : 'no'}`,
      required(e),
    ],
  },
  vk: {
    heading: 'VK',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters (the editor's limit; wall.post states none)`,
      `${e.media.maxImages} per post (attachments: at most ${e.media.maxItems} objects), uploaded for the wall, up to ${e.media.maxImageBytes! / MB} MB each`,
      `up to ${e.media.maxVideoBytes / GB} GB (Herald's cap)`,
      `| Images and video together | ${e.media.mixed ? 'yes' : 'no'}`,
      required(e),
    ],
  },
  nostr: {
    heading: 'Nostr',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters (Herald's cap); NIP-01 sets none`,
      `| ${e.media.maxImages} per note, as links in the text`,
      `| Video | ${e.media.maxVideos === 0 ? 'not posted by Herald' : 'posted'}`,
      required(e),
    ],
  },
  farcaster: {
    heading: 'Farcaster',
    phrases: (e) => [
      `| ${e.text.maxChars} ${e.text.unit}`,
      `at most ${e.media.maxItems} per cast`,
      `up to ${e.media.maxVideoBytes / GB} GB and ${minutes(e.media.maxVideoSeconds)}`,
      `| Images and video together | ${e.media.mixed ? 'yes' : 'no'}`,
      required(e),
    ],
  },
  bluesky: {
    heading: 'Bluesky',
    phrases: (e) => [
      `| ${e.text.maxChars} ${e.text.unit}`,
      `up to ${e.media.maxImages}, each blob at most ${n(e.media.maxImageBytes!)} bytes`,
      `${e.media.maxVideos} per post, up to ${n(e.media.maxVideoBytes)} bytes and ${minutes(e.media.maxVideoSeconds)}`,
      required(e),
    ],
  },
  ghost: {
    heading: 'Ghost',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters (Herald's own cap)`,
      `up to ${e.media.maxImages}, uploaded to the site (\`POST /images/upload/\`): the first is the feature image`,
      '| Video | none through Herald',
      '| Title | 255 characters',
      required(e),
    ],
  },
  listmonk: {
    heading: 'Listmonk',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters (Herald's own cap)`,
      `1 to ${n(e.article!.maxTitle)} characters; the \`subject\` setting, or the text's first line`,
      `up to ${e.media.maxImages}, as Markdown images below the body`,
      required(e),
    ],
  },
  hashnode: {
    heading: 'Hashnode',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters (Herald's own cap)`,
      `up to ${e.media.maxImages}: the first is the cover (\`coverImageOptions.coverImageURL\`, taken by URL)`,
      '| Video | none through the API',
      'up to 15 tags',
      required(e),
    ],
  },
  medium: {
    heading: 'Medium',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters (Herald's own cap)`,
      `up to ${e.media.maxImages}, in the Markdown by URL (Medium side-loads them)`,
      '| Video | none through the API',
      '| Title | 100 characters',
      'up to 3 tags, each at most 25 characters',
      required(e),
    ],
  },
  wordpress: {
    heading: 'WordPress',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters (Herald's own cap)`,
      `up to ${e.media.maxImages}, uploaded to the site (\`POST /wp/v2/media\`): the first is the featured image`,
      '| Video | none through Herald',
      'up to 20 tags and 10 categories, by name',
      required(e),
    ],
  },
  wordpress_com: {
    heading: 'WordPress.com',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters (Herald's own cap)`,
      `up to ${e.media.maxImages}, uploaded to the site (\`POST /wp/v2/sites/{site}/media\`): the first is the featured image`,
      '| Video | none through Herald',
      'up to 20 tags and 10 categories, by name',
      required(e),
    ],
  },
  devto: {
    heading: 'Dev.to',
    phrases: (e) => [
      `| ${n(e.text.maxChars)} characters (Herald's own cap)`,
      `up to ${e.media.maxImages}: the first is the cover (\`main_image\`)`,
      '| Video | none through the API',
      'up to 4 tags',
      required(e),
    ],
  },
};

// Table cells are padded to align columns (the formatter realigns them whenever a row
// changes): compare with runs of spaces collapsed, so only the words and numbers count.
const doc = readFileSync(path.resolve(import.meta.dirname, '../../../docs/platform-limits.md'), 'utf8').replace(/ {2,}/g, ' ');

function section(heading: string): string {
  const start = doc.indexOf(`\n## ${heading}\n`);
  expect(start, `docs/platform-limits.md has a "## ${heading}" section`).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
}

describe('platform catalogue', () => {
  it.each(PLATFORMS)('%s agrees with docs/platform-limits.md', (platform) => {
    const { heading, phrases } = DOCUMENTED[platform];
    const text = section(heading);
    for (const phrase of phrases(PLATFORM_CATALOGUE[platform])) expect(text).toContain(phrase);
  });

  it('states Herald’s own readings in "How Herald applies these"', () => {
    const applied = section('How Herald applies these (`server/platforms/catalogue/`)');
    const { facebook, instagram, linkedin } = PLATFORM_CATALOGUE;
    expect(applied).toContain(
      `${n(facebook.text.maxChars)} characters, ${facebook.media.maxImages} photos and ${facebook.media.maxVideoSeconds / 60} minutes of video`,
    );
    expect(applied).toContain(`video at most ${instagram.media.story.maxVideoSeconds} s and ${instagram.media.story.maxVideoBytes / MB} MB`);
    expect(applied).toContain(`video up to ${linkedin.media.maxVideoBytes / MB} MB (Videos API), up to ${linkedin.media.maxVideoSeconds / 60} minutes`);
  });

  it('counts text the way each platform says', () => {
    expect(PLATFORM_CATALOGUE.twitter.text.count).toBe(twitterWeightedLength);
    expect(PLATFORM_CATALOGUE.threads.text.count).toBe(threadsLength);
    expect(PLATFORM_CATALOGUE.tiktok.text.count).toBe(utf16Length);
    expect(PLATFORM_CATALOGUE.youtube.text.count).toBe(utf8ByteLength);
    // A cast's text is limited in bytes: an emoji is 4 of the 320.
    expect(PLATFORM_CATALOGUE.farcaster.text.count).toBe(utf8ByteLength);
    expect(PLATFORM_CATALOGUE.farcaster.text.count('gm ☕')).toBe(6);
    for (const platform of ['linkedin', 'instagram', 'facebook'] as const) expect(PLATFORM_CATALOGUE[platform].text.count).toBe(codePointLength);
    expect(PLATFORM_CATALOGUE.mastodon.text.count).toBe(mastodonLength);
    expect(PLATFORM_CATALOGUE.bluesky.text.count).toBe(graphemeLength);
    for (const platform of ['telegram', 'slack'] as const) expect(PLATFORM_CATALOGUE[platform].text.count).toBe(utf16Length);
    for (const platform of ['linkedin', 'instagram', 'facebook', 'discord', 'twitch', 'kick'] as const)
      expect(PLATFORM_CATALOGUE[platform].text.count).toBe(codePointLength);
  });

  it('never lets a post carry more media than one post of the platform can', () => {
    for (const { media } of Object.values(PLATFORM_CATALOGUE)) {
      // Not mixed: one video is a post of its own (none where the network takes no video).
      expect(media.maxItems).toBeGreaterThanOrEqual(Math.max(media.maxImages, media.mixed ? media.maxVideos : Math.min(1, media.maxVideos)));
      if (media.mixed) expect(media.maxItems).toBe(media.maxImages);
    }
  });
});

describe('stored settings', () => {
  it('come back typed and unchanged', () => {
    expect(parseStoredSettings('instagram', { videoType: 'story', firstComment: 'hi' })).toEqual({ videoType: 'story', firstComment: 'hi' });
    expect(parseStoredSettings('threads', undefined)).toEqual({});
  });

  it('refuse a value the schema would not have accepted', () => {
    expect(() => parseStoredSettings('linkedin', { visibility: 'EVERYONE' })).toThrow(
      'The stored linkedin settings are not valid: visibility: Invalid option: expected one of "PUBLIC"|"CONNECTIONS"',
    );
  });

  it('refuse a Google Business Profile event or offer without its event', () => {
    expect(() => parseStoredSettings('google_business', { topicType: 'OFFER' })).toThrow('event: An event or an offer needs its title and dates');
    expect(() => parseStoredSettings('google_business', { callToAction: { actionType: 'CALL', url: 'https://herald.example' } })).toThrow(
      'Call now takes no link; every other button needs one',
    );
  });

  it('reach each adapter with its own platform’s type', () => {
    expectTypeOf<PublishRequest<'instagram'>['settings']>().toEqualTypeOf<{
      videoType?: 'feed' | 'reel' | 'story';
      shareToFeed?: boolean;
      coverUrl?: string;
      firstComment?: string;
    }>();
    expectTypeOf<PublishRequest<'linkedin'>['settings']>().toEqualTypeOf<{ visibility?: 'PUBLIC' | 'CONNECTIONS' }>();
    expectTypeOf<PublishRequest<'twitter'>['settings']>().toEqualTypeOf<{ replyTo?: string; quoteTweet?: string }>();
    expectTypeOf<PublishRequest<'facebook'>['settings']>().toEqualTypeOf<{ firstComment?: string }>();
  });
});
