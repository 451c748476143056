// X (Twitter) weighted length, per twitter-text v3 (the configuration X's API enforces):
// every URL counts as 23 characters; code points in the listed ranges weigh 1, every other
// code point (CJK, most emoji) weighs 2; the limit is 280 weighted characters. Text is
// NFC-normalised first, as X does.
const URL_LENGTH = 23;
const LIGHT_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0, 4351],
  [8192, 8205],
  [8208, 8223],
  [8242, 8247],
];
// URLs as X's parser finds them: an explicit scheme, or a bare domain with a common TLD.
const URL_PATTERN = /\bhttps?:\/\/[^\s]+|\b(?:[a-z0-9-]+\.)+(?:com|net|org|io|co|dev|app|ai|me|ly|gg|tv|uk|de|fr|edu|gov)(?:\/[^\s]*)?/gi;

function weightOf(codePoint: number): number {
  return LIGHT_RANGES.some(([lo, hi]) => codePoint >= lo && codePoint <= hi) ? 1 : 2;
}

export function twitterWeightedLength(text: string): number {
  const normalised = text.normalize('NFC');
  let length = 0;
  let last = 0;
  for (const match of normalised.matchAll(URL_PATTERN)) {
    length += weighText(normalised.slice(last, match.index));
    length += URL_LENGTH;
    last = match.index! + match[0].length;
  }
  return length + weighText(normalised.slice(last));
}

function weighText(text: string): number {
  let n = 0;
  for (const ch of text) n += weightOf(ch.codePointAt(0)!);
  return n;
}
