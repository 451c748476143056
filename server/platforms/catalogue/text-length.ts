// How each platform counts the characters of a post's text.
//
// X (Twitter), per twitter-text v3 (what X's API enforces): text is NFC-normalised; every URL
// counts 23; an emoji (a whole emoji sequence, e.g. a family or a flag) counts 2; other code
// points weigh 1 inside the listed ranges (Latin and most alphabetic scripts, some
// punctuation) and 2 elsewhere (CJK and the like). Limit 280.
// Threads: "Emojis are counted as the number of UTF-8 bytes" (Threads posts docs), every
// other character counts 1. TikTok: UTF-16 code units (an emoji is 2). YouTube descriptions:
// UTF-8 bytes ("a maximum length of 5000 bytes"). Others: code points.
const URL_LENGTH = 23;
const LIGHT_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0, 4351],
  [8192, 8205],
  [8208, 8223],
  [8242, 8247],
];
// URLs as X's parser finds them: an explicit scheme, or a bare domain with a common TLD.
const URL_PATTERN = /\bhttps?:\/\/[^\s]+|\b(?:[a-z0-9-]+\.)+(?:com|net|org|io|co|dev|app|ai|me|ly|gg|tv|uk|de|fr|edu|gov)(?:\/[^\s]*)?/gi;
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

const isEmoji = (grapheme: string) => EMOJI.test(grapheme);
const isLight = (cp: number) => LIGHT_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi);

function weighForX(text: string): number {
  let n = 0;
  for (const { segment } of graphemes.segment(text)) {
    if (isEmoji(segment)) n += 2;
    else for (const ch of segment) n += isLight(ch.codePointAt(0)!) ? 1 : 2;
  }
  return n;
}

export function twitterWeightedLength(text: string): number {
  const normalised = text.normalize('NFC');
  let length = 0;
  let last = 0;
  for (const match of normalised.matchAll(URL_PATTERN)) {
    length += weighForX(normalised.slice(last, match.index)) + URL_LENGTH;
    last = match.index! + match[0].length;
  }
  return length + weighForX(normalised.slice(last));
}

export function threadsLength(text: string): number {
  let n = 0;
  for (const { segment } of graphemes.segment(text)) n += isEmoji(segment) ? Buffer.byteLength(segment, 'utf8') : [...segment].length;
  return n;
}

export const utf16Length = (text: string): number => text.length;
export const codePointLength = (text: string): number => [...text].length;
export const utf8ByteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

// Mastodon, per its StatusLengthValidator (app/validators/status_length_validator.rb): every
// URL counts 23 (characters_reserved_per_url), a mention @user@domain counts only "@user", and
// the rest is counted in grapheme clusters.
const MASTODON_URL = /\bhttps?:\/\/[^\s<>"]+/gi;
const MASTODON_MENTION = /(^|[^\p{L}\p{N}_/])@([a-z0-9_]+(?:[a-z0-9_.-]+[a-z0-9_]+)?)@[a-z0-9.-]+[a-z0-9]+/giu;
export const graphemeLength = (text: string): number => [...graphemes.segment(text)].length;

export function mastodonLength(text: string): number {
  const countable = text.replace(MASTODON_URL, 'x'.repeat(URL_LENGTH)).replace(MASTODON_MENTION, (_m, before: string, user: string) => `${before}@${user}`);
  return graphemeLength(countable);
}
