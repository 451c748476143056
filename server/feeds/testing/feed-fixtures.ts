// RSS 2.0 and Atom documents as publishers write them, built from a list of items, for the
// feeds' tests: namespaces, CDATA, escaped HTML in descriptions, and images three ways.
export interface FixtureItem {
  guid?: string;
  title: string;
  link?: string;
  summary?: string;
  image?: { via: 'enclosure' | 'media:content' | 'media:thumbnail'; url: string };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function rss(title: string, items: readonly FixtureItem[]): string {
  const body = items
    .map((i) => {
      const image =
        i.image?.via === 'enclosure'
          ? `<enclosure url="${i.image.url}" length="1024" type="image/jpeg"/>`
          : i.image?.via === 'media:content'
            ? `<media:content url="${i.image.url}" medium="image" type="image/jpeg"/>`
            : i.image
              ? `<media:thumbnail url="${i.image.url}"/>`
              : '';
      return `    <item>
      <title><![CDATA[${i.title}]]></title>
      ${i.link ? `<link>${esc(i.link)}</link>` : ''}
      ${i.guid ? `<guid isPermaLink="false">${esc(i.guid)}</guid>` : ''}
      ${i.summary !== undefined ? `<description>${esc(i.summary)}</description>` : ''}
      <pubDate>Mon, 07 Dec 2026 09:00:00 GMT</pubDate>
      ${image}
    </item>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${esc(title)}</title>
    <link>https://blog.example.com/</link>
    <atom:link href="https://blog.example.com/feed.xml" rel="self" type="application/rss+xml"/>
    <description>News</description>
${body}
  </channel>
</rss>`;
}

export function atom(title: string, items: readonly FixtureItem[]): string {
  const body = items
    .map(
      (i) => `  <entry>
    <title type="html">${esc(i.title)}</title>
    ${i.guid ? `<id>${esc(i.guid)}</id>` : ''}
    ${i.link ? `<link rel="alternate" type="text/html" href="${esc(i.link)}"/>` : ''}
    ${i.image ? `<link rel="enclosure" type="image/png" href="${esc(i.image.url)}"/>` : ''}
    <updated>2026-12-07T09:00:00Z</updated>
    ${i.summary !== undefined ? `<summary type="html">${esc(i.summary)}</summary>` : ''}
  </entry>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>${esc(title)}</title>
  <id>urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6</id>
  <updated>2026-12-07T09:00:00Z</updated>
${body}
</feed>`;
}
