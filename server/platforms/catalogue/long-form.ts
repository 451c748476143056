// The settings the long-form networks (Dev.to, Ghost, WordPress, Hashnode, Medium) share, each
// network's entry taking the ones its API has. The title is optional everywhere: without one,
// the first line of the text is the title (server/platforms/long-form.ts; docs/decisions.md,
// "Long-form networks").
import { z } from 'zod';
import { storableText, ZText } from '@/server/shared/schemas';

/** Herald's own cap on a post's text (MAX_CONTENT in server/posts/posts.schemas.ts); no long-form network counts lower. */
export const LONG_FORM_MAX_CHARS = 10_000;

/** An article takes images (the first is its cover or featured image), never a video. */
export const LONG_FORM_MEDIA = {
  maxImages: 10,
  maxVideos: 0,
  maxItems: 10,
  mixed: false,
  required: false,
  maxVideoSeconds: 0,
  maxVideoBytes: 0,
} as const;

export const titleSetting = (max: number) =>
  ZText.trim()
    .min(1)
    .max(max)
    .optional()
    .describe(`The article’s title (at most ${max} characters); without one, the first line of the text is the title and the rest the body`);

export const canonicalUrlSetting = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .check(storableText)
  .optional()
  .describe('Where the article first appeared, when it is republished here (search engines credit that address)');

export const tagsSetting = (max: number, tag: z.ZodType<string> = ZText.trim().min(1).max(100)) =>
  z.array(tag).max(max).optional().describe(`Up to ${max} tags`);

export interface Article {
  title: string;
  /** The text without the line that became the title (the whole text when it was the only line). */
  body: string;
}

/** The title and body of the article a post makes; `maxTitle` cuts a derived title at a word where the network caps it. */
export function articleOf(content: string, title: string | undefined, maxTitle = Number.POSITIVE_INFINITY): Article {
  const given = title?.trim();
  if (given) return { title: given, body: content.trim() };
  const text = content.replace(/\r\n?/g, '\n').trim();
  const newline = text.indexOf('\n');
  const first = (newline === -1 ? text : text.slice(0, newline))
    .replace(/^#{1,6}\s+/, '')
    .replace(/\s+#+\s*$/, '')
    .trim();
  const rest = newline === -1 ? '' : text.slice(newline + 1).trim();
  return { title: shorten(first, maxTitle), body: rest || text };
}

function shorten(title: string, max: number): string {
  const chars = [...title];
  if (chars.length <= max) return title;
  const cut = chars.slice(0, max - 1).join('');
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${(atWord.length > max / 2 ? atWord : cut).trimEnd()}…`;
}
