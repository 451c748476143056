// Tracked links, the writing side: when a workspace tracks links, each http(s) link in what a
// post sends (its text, its first comment, a thread's later parts) becomes one of Herald's
// short links, one per (post, network, link), leading to the link with the workspace's UTM
// parameters. The texts each target sends, their links replaced, are written on the target
// (PostTarget.trackedContent, trackedFirstComment, trackedParts) when the post is created or
// edited: the claim records part 1's as the attempt's intent, a thread's parts are copied into
// their PostThreadPart rows and the first comment is sent as written there, so what a
// reconciler looks for is what was sent, and delivery itself makes no extra round trip.
import { randomBytes } from 'node:crypto';
import type { Tx } from '@/server/db/client';
import { env } from '@/server/config/env';
import { catalogueEntry, postsThreads, replyLimit } from '@/server/platforms/catalogue';
import { firstCommentFor } from '@/server/posts/first-comment';
import { storedParts } from '@/server/posts/thread-parts';
import { isPlatform, type Platform } from '@/server/shared/platforms';
import { SHORT_CODE_LENGTH, SHORT_LINK_PATH } from './links.schemas';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random short code: base62 from crypto.randomBytes, bytes ≥ 248 rejected so each character is uniform. */
export function newShortCode(): string {
  let code = '';
  while (code.length < SHORT_CODE_LENGTH) {
    for (const byte of randomBytes(SHORT_CODE_LENGTH * 2)) {
      if (byte < 248 && code.length < SHORT_CODE_LENGTH) code += BASE62[byte % 62];
    }
  }
  return code;
}

/** The short link of a code, under Herald's public address. */
export const shortUrlOf = (code: string): string => `${env.baseUrl()}${SHORT_LINK_PATH}${code}`;

const LINK = /https?:\/\/[^\s<>"'`]+/gi;

/** The texts a post as written may send anywhere: its text and variants, first comments (its own and each network's), a thread's parts. */
type WrittenPost = {
  content: string;
  variants?: Partial<Record<string, { content?: string } | undefined>> | null;
  firstComment?: string | null;
  platformSettings?: unknown;
  parts?: unknown;
};

/** Whether any text the post sends has a link to shorten: a post without one needs no tracked-links work. */
export function hasLinks(post: WrittenPost): boolean {
  const settings = (post.platformSettings ?? {}) as Record<string, { firstComment?: unknown } | undefined>;
  const texts = [
    post.content,
    ...Object.values(post.variants ?? {}).map((v) => v?.content ?? ''),
    post.firstComment ?? '',
    ...Object.values(settings).map((s) => (typeof s?.firstComment === 'string' ? s.firstComment : '')),
    ...storedParts(post.parts).map((p) => p.content),
  ];
  return texts.some((text) => findLinks(text).length > 0);
}

/**
 * The http(s) links of a text, where they stand. Punctuation that ends a sentence is not part
 * of a link (`see https://a.example/x.` links to /x), nor is a closing parenthesis that opens
 * nowhere in it; a link that is not a valid URL, or already one of Herald's short links, is left out.
 */
export function findLinks(text: string): { start: number; end: number; url: string }[] {
  const own = `${env.baseUrl()}${SHORT_LINK_PATH}`;
  const found: { start: number; end: number; url: string }[] = [];
  for (const m of text.matchAll(LINK)) {
    let url = m[0];
    for (;;) {
      const trimmed = url.replace(/[.,;:!?'"*]+$/, '');
      const unbalanced = trimmed.endsWith(')') && (trimmed.match(/\(/g) ?? []).length < (trimmed.match(/\)/g) ?? []).length;
      const next = unbalanced ? trimmed.slice(0, -1) : trimmed;
      if (next === url) break;
      url = next;
    }
    if (url.startsWith(own) || !URL.canParse(url) || !/^https?:\/\/[^/?#]+/i.test(url)) continue;
    found.push({ start: m.index, end: m.index + url.length, url });
  }
  return found;
}

/**
 * The link with the template's parameters added after its own (a parameter the link already
 * has keeps its value), the fragment kept last. The link's own query is kept byte for byte.
 */
export function withUtm(url: string, template: string, values: { network: string; post: string }): string {
  if (!template) return url;
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  const has = new URL(url).searchParams;
  const added = template
    .split('&')
    .map((pair) => pair.split('=') as [string, string])
    .filter(([name]) => !has.has(name))
    .map(
      ([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value.replaceAll('{network}', values.network).replaceAll('{post}', values.post))}`,
    );
  if (!added.length) return url;
  const joiner = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${joiner}${added.join('&')}${fragment}`;
}

/** `text` with each link replaced by its short link (`codes`: url → code). */
export function rewriteText(text: string, codes: ReadonlyMap<string, string>): string {
  let out = '';
  let at = 0;
  for (const link of findLinks(text)) {
    const code = codes.get(link.url);
    if (!code) continue;
    out += text.slice(at, link.start) + shortUrlOf(code);
    at = link.end;
  }
  return out + text.slice(at);
}

/** A network's limit for a text, counted its way: a post's, or a comment's. */
type TextLimit = { maxChars: number; count: (text: string) => number };

/** Whether `text` fits the network's limit. */
function fits(limit: TextLimit, text: string): boolean {
  return limit.count(text) <= limit.maxChars;
}

type PostRow = {
  workspaceId: string;
  content: string;
  variants: unknown;
  firstComment: string | null;
  platformSettings: unknown;
  parts: unknown;
  trackLinks: boolean;
  utmTemplate: string;
  platforms: string[];
  tracked: boolean;
};

/** What one network's target sends: part 1, its first comment (or none), the thread's later parts (none where it takes no threads). */
type TargetTexts = { platform: Platform; content: string; firstComment: string | null; parts: string[] };

/** The texts a post sends on a network, as written. */
function textsOf(post: PostRow, platform: Platform): TargetTexts {
  const variants = (post.variants ?? {}) as Partial<Record<string, { content?: string }>>;
  return {
    platform,
    content: variants[platform]?.content ?? post.content,
    firstComment: firstCommentFor(platform, post),
    parts: postsThreads(platform) ? storedParts(post.parts).map((p) => p.content) : [],
  };
}

/** `text` with its short links where they still fit the network's limit; null: send it as written. */
function shortened(text: string, codes: ReadonlyMap<string, string>, limit: TextLimit): string | null {
  const next = rewriteText(text, codes);
  return next !== text && fits(limit, next) ? next : null;
}

/**
 * Makes (or reuses) the post's short links, for every text a target sends (part 1, the first
 * comment, a thread's later parts), and writes the shortened texts on each target still to be
 * sent (pending or failed) inside the caller's transaction; with tracking off, clears them.
 * Idempotent: the same post gives the same codes, so a retried edit or a crash between two
 * calls reuses them. A text that would no longer fit its network's limit with the short links
 * (a link shorter than Herald's) is sent as written. One statement when the workspace does not
 * track links (and none of the post's targets was tracked), three when it does.
 */
export async function trackPostLinks(tx: Pick<Tx, '$queryRaw' | '$executeRaw'>, postId: string): Promise<void> {
  const [post] = await tx.$queryRaw<PostRow[]>`
    SELECT p."workspaceId", p.content, p.variants, p."firstComment", p."platformSettings", p.parts, w."trackLinks", w."utmTemplate",
           COALESCE(array_agg(DISTINCT t.platform) FILTER (WHERE t.status IN ('pending', 'failed')), '{}') AS platforms,
           COALESCE(bool_or((t."trackedContent" IS NOT NULL OR t."trackedFirstComment" IS NOT NULL OR cardinality(t."trackedParts") > 0)
                            AND t.status IN ('pending', 'failed')), false) AS tracked
      FROM "Post" p JOIN "Workspace" w ON w.id = p."workspaceId" LEFT JOIN "PostTarget" t ON t."postId" = p.id
     WHERE p.id = ${postId}::uuid GROUP BY p.id, w.id`;
  if (!post) return;
  if (!post.trackLinks) {
    if (post.tracked)
      await tx.$executeRaw`UPDATE "PostTarget" SET "trackedContent" = NULL, "trackedFirstComment" = NULL, "trackedParts" = '{}', "updatedAt" = now()
        WHERE "postId" = ${postId}::uuid AND "status" IN ('pending', 'failed')
          AND ("trackedContent" IS NOT NULL OR "trackedFirstComment" IS NOT NULL OR cardinality("trackedParts") > 0)`;
    return;
  }
  const texts = post.platforms.filter(isPlatform).map((platform) => textsOf(post, platform));
  const wanted = texts.flatMap((t) =>
    [...new Set([t.content, t.firstComment ?? '', ...t.parts].flatMap((text) => findLinks(text).map((l) => l.url)))].map((url) => ({
      platform: t.platform,
      url,
      // As a URL writes it (non-ASCII percent-encoded, the host in punycode): a Location header carries it as it is.
      destination: new URL(withUtm(url, post.utmTemplate, { network: t.platform, post: postId })).href,
      code: newShortCode(),
    })),
  );
  const codes = new Map<string, Map<string, string>>();
  if (wanted.length) {
    // A link made before keeps its code; its destination follows the template of today.
    const rows = await tx.$queryRaw<{ platform: string; url: string; code: string }[]>`
      INSERT INTO "TrackedLink" ("id", "workspaceId", "postId", "platform", "url", "destination", "code", "createdAt")
      SELECT gen_random_uuid(), ${post.workspaceId}::uuid, ${postId}::uuid, w.platform, w.url, w.destination, w.code, now()
        FROM unnest(${wanted.map((w) => w.platform)}::text[], ${wanted.map((w) => w.url)}::text[], ${wanted.map((w) => w.destination)}::text[],
                    ${wanted.map((w) => w.code)}::text[]) AS w(platform, url, destination, code)
      ON CONFLICT ("postId", "platform", "url") DO UPDATE SET "destination" = EXCLUDED."destination"
      RETURNING "platform", "url", "code"`;
    for (const r of rows) codes.set(r.platform, (codes.get(r.platform) ?? new Map()).set(r.url, r.code));
  }
  const rewritten = texts.map((t) => {
    const mine = codes.get(t.platform) ?? new Map<string, string>();
    const postLimit = catalogueEntry(t.platform).text;
    const parts = t.parts.map((part) => shortened(part, mine, postLimit));
    return {
      platform: t.platform,
      content: shortened(t.content, mine, postLimit),
      firstComment: t.firstComment === null ? null : shortened(t.firstComment, mine, replyLimit(t.platform)),
      // Every part in order once any changed (a part kept as written stands as it is).
      parts: parts.some((p) => p !== null) ? parts.map((p, i) => p ?? t.parts[i]!) : [],
    };
  });
  if (!rewritten.some((r) => r.content !== null || r.firstComment !== null || r.parts.length) && !post.tracked) return;
  await tx.$executeRaw`UPDATE "PostTarget" t
       SET "trackedContent" = v.content, "trackedFirstComment" = v.comment,
           "trackedParts" = ARRAY(SELECT jsonb_array_elements_text(v.parts)), "updatedAt" = now()
      FROM unnest(${rewritten.map((r) => r.platform)}::text[], ${rewritten.map((r) => r.content)}::text[],
                  ${rewritten.map((r) => r.firstComment)}::text[], ${rewritten.map((r) => JSON.stringify(r.parts))}::jsonb[])
           AS v(platform, content, comment, parts)
     WHERE t."postId" = ${postId}::uuid AND t.platform = v.platform AND t.status IN ('pending', 'failed')`;
}
