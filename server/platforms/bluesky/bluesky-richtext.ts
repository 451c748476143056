// Rich text facets of a Bluesky post (https://docs.bsky.app/docs/advanced-guides/post-richtext):
// links, mentions and hashtags, each located by UTF-8 byte offsets into the text. The patterns
// follow the ones that page gives (and @atproto/api's RichText.detectFacets).
import { createHash } from 'node:crypto';

export interface Facet {
  index: { byteStart: number; byteEnd: number };
  features: (
    | { $type: 'app.bsky.richtext.facet#link'; uri: string }
    | { $type: 'app.bsky.richtext.facet#mention'; did: string }
    | { $type: 'app.bsky.richtext.facet#tag'; tag: string }
  )[];
}

export interface Span {
  start: number;
  end: number;
  value: string;
}

const bytes = (text: string, index: number) => Buffer.byteLength(text.slice(0, index), 'utf8');
const TRAILING_PUNCTUATION = /[.,;:!?)"'\]]+$/;

function spans(text: string, pattern: RegExp, group: number): Span[] {
  const found: Span[] = [];
  for (const match of text.matchAll(pattern)) {
    const value = match[group]!.replace(TRAILING_PUNCTUATION, '');
    const start = match.index! + match[0].indexOf(match[group]!);
    found.push({ start, end: start + value.length, value });
  }
  return found;
}

export const links = (text: string): Span[] => spans(text, /(^|\s|\()(https?:\/\/[^\s]+)/gi, 2);
/** "@alice.bsky.social" mentions (value without the @ is the handle). */
export const mentions = (text: string): Span[] =>
  spans(text, /(^|\s|\()(@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)/g, 2);
/** "#tag" with at least one character that is not a digit; at most 64 characters. */
export const hashtags = (text: string): Span[] =>
  spans(text, /(^|\s)([#＃][^\s#＃]+)/gu, 2).filter((s) => /[^\d]/u.test(s.value.slice(1)) && s.value.length > 1 && s.value.length <= 65);

/** The facets of `text`; a mention whose handle `resolve` cannot find stays plain text. */
export async function detectFacets(text: string, resolve: (handle: string) => Promise<string | null>): Promise<Facet[]> {
  const at = (span: Span) => ({ byteStart: bytes(text, span.start), byteEnd: bytes(text, span.end) });
  const facets: Facet[] = links(text).map((span) => ({ index: at(span), features: [{ $type: 'app.bsky.richtext.facet#link', uri: span.value }] }));
  for (const span of mentions(text)) {
    const did = await resolve(span.value.slice(1).toLowerCase());
    if (did) facets.push({ index: at(span), features: [{ $type: 'app.bsky.richtext.facet#mention', did }] });
  }
  for (const span of hashtags(text)) facets.push({ index: at(span), features: [{ $type: 'app.bsky.richtext.facet#tag', tag: span.value.slice(1) }] });
  return facets.sort((a, b) => a.index.byteStart - b.index.byteStart);
}

const S32 = '234567abcdefghijklmnopqrstuvwxyz';

/**
 * A record key in the shape of a TID (13 base32-sortable characters, top bit zero:
 * https://atproto.com/specs/tid) derived from the target's idempotency key, so every attempt
 * for one target writes the same record: a retry after an unrecorded success meets the
 * existing record instead of posting twice.
 */
export function recordKeyFor(idempotencyKey: string): string {
  let value = createHash('sha256').update(`herald:${idempotencyKey}`).digest().readBigUInt64BE(0) & 0x7fff_ffff_ffff_ffffn;
  let key = '';
  for (let i = 0; i < 13; i++) {
    key = S32[Number(value & 31n)]! + key;
    value >>= 5n;
  }
  return key;
}
