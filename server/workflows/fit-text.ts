// Shortening a text to a platform's limit, counted the way the platform counts (the
// catalogue's counter: X's weighted length, Threads' bytes …), at a word boundary.
import type { TextRules } from '@/server/platforms/catalogue';

const ELLIPSIS = '…';

export function fitText(text: string, rules: TextRules): { text: string; shortened: boolean } {
  if (rules.count(text) <= rules.maxChars) return { text, shortened: false };
  const words = text.split(/(\s+)/);
  let out = '';
  for (const word of words) {
    const next = out + word;
    if (rules.count(next.trimEnd() + ELLIPSIS) > rules.maxChars) break;
    out = next;
  }
  out = out.trimEnd();
  // One word longer than the limit: cut inside it, code point by code point.
  if (!out) {
    for (const ch of text) {
      if (rules.count(out + ch + ELLIPSIS) > rules.maxChars) break;
      out += ch;
    }
  }
  return { text: out + ELLIPSIS, shortened: true };
}
