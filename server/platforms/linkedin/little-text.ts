// Post commentary is LinkedIn's "little" text format: the characters it reserves for mentions
// and templates must be backslash-escaped to be shown as typed, otherwise LinkedIn silently
// cuts the text at the first unescaped one.
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/little-text-format
// A '#' that starts a word is left alone: "#hashtag" is little's own hashtag element.
const RESERVED = /[\\|{}@[\]()<>#*_~]/g;
const WORD_CHAR = /[\p{L}\p{N}]/u;

export function toLittleText(text: string): string {
  return text.replace(RESERVED, (char: string, offset: number) => {
    if (char === '#' && startsHashtag(text, offset)) return char;
    return `\\${char}`;
  });
}

function startsHashtag(text: string, offset: number): boolean {
  const before = offset === 0 ? ' ' : text[offset - 1]!;
  const after = text[offset + 1] ?? '';
  return /\s/.test(before) && WORD_CHAR.test(after);
}

/**
 * Commentary as LinkedIn returns it, read back as plain text: hashtag templates
 * ({hashtag|\#|coffee}) become #coffee, mentions (@[Name](urn:li:…)) their name, and escaped
 * reserved characters themselves; so it compares with the text Herald was given.
 */
export function fromLittleText(text: string): string {
  return text
    .replace(/\{hashtag\|\\?#\|([^}]*)\}/g, '#$1')
    .replace(/@\[([^\]]*)\]\(urn:li:[^)]*\)/g, '$1')
    .replace(/\\([\\|{}@[\]()<>#*_~])/g, '$1');
}
