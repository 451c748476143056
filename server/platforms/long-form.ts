// What the long-form networks (Dev.to, Ghost, WordPress, Hashnode, Medium) share: an article
// needs a title, and Herald's post is one text. The title is the post's `title` setting for
// that network; without one it is the text's first line (a leading Markdown heading mark
// dropped), and the article's body is the rest of the text. A text of one line is both title
// and body, so no article goes out empty. docs/decisions.md, "Long-form networks", says why.
//
// The networks that take HTML (Ghost, WordPress) get the text as paragraphs: blank lines part
// paragraphs, a single line break is a <br>, and everything is escaped, since Herald's text is
// plain (the Markdown networks take it as written).

import { checkOutboundUrl } from '@/server/outbound';

export { articleOf, type Article } from './catalogue/long-form';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Plain text as HTML paragraphs: blank lines part them, a single line break is a <br>, links are linked. */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${paragraph.split('\n').map(lineToHtml).join('<br>')}</p>`)
    .join('\n');
}

function lineToHtml(line: string): string {
  return escapeHtml(line).replace(/https?:\/\/[^\s<]+[^\s<.,;:!?)'"&]/g, (url) => `<a href="${url}">${url}</a>`);
}

/** Tags as the network takes them: trimmed, a leading # dropped, no empties, no repeats (case-insensitive). */
export function cleanTags(tags: readonly string[] | undefined): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags ?? []) {
    const tag = raw.trim().replace(/^#+/, '').trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
}

/**
 * A site's address as a client types it ("blog.example.com", "https://example.com/blog/") as
 * Herald calls it: https, no trailing slash, a subdirectory kept; refused when the outbound
 * guard would refuse it (a private address, a local name, credentials in the URL).
 */
export function siteBaseUrl(input: string): { ok: true; base: string } | { ok: false; reason: string } {
  let value = input.trim();
  if (!value) return { ok: false, reason: 'Enter the site’s address.' };
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) value = `https://${value}`;
  const checked = checkOutboundUrl(value);
  if (!checked.ok) return { ok: false, reason: checked.reason };
  const url = checked.url;
  return { ok: true, base: `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}` };
}
