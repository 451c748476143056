// Reading RSS 2.0 (and RSS 1.0/RDF) and Atom 1.0 documents into one shape: the feed's title
// and its items with the key that identifies each (guid or Atom id, else its link), a title,
// a link, a plain-text summary and an image. Tags are matched by their local name, so a
// namespace prefix other than the usual one (`media:`, `atom:`) reads the same.
import * as cheerio from 'cheerio';

export interface FeedItemData {
  /** guid (RSS) or id (Atom), else the link: what makes an item the same item when re-read or edited. */
  key: string;
  title: string;
  link: string;
  summary: string;
  imageUrl: string | null;
}

export interface ParsedFeed {
  format: 'rss' | 'atom';
  title: string;
  /** In document order (feeds usually list the newest first). */
  items: FeedItemData[];
}

export class FeedParseError extends Error {}

/** Long enough for a teaser, short enough to leave room for the title and link in a post. */
export const SUMMARY_MAX = 280;
const MAX_KEY = 1000;

/** The parts of the parsed tree read here (domhandler's nodes, which cheerio does not re-export). */
interface XmlNode {
  type: string;
  data?: string;
  children?: XmlNode[];
}
interface Element extends XmlNode {
  name: string;
  attribs: Record<string, string>;
  children: XmlNode[];
}

const localName = (el: Element) => el.name.slice(el.name.indexOf(':') + 1).toLowerCase();
const isElement = (n: XmlNode): n is Element => n.type === 'tag' || n.type === 'script' || n.type === 'style';
const children = (el: Element, name?: string) => el.children.filter(isElement).filter((c) => name === undefined || localName(c) === name);
const first = (el: Element, name: string) => children(el, name)[0];

/** The text inside a node, CDATA included, as written. */
function rawText(node: XmlNode | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.data ?? '';
  return (node.children ?? []).map(rawText).join('');
}

/** Element text with runs of whitespace collapsed. */
const textOf = (el: Element | undefined) => rawText(el).replace(/\s+/g, ' ').trim();

/** Feed text that may hold HTML (RSS descriptions usually do, escaped): the words only. */
export function plainText(htmlish: string): string {
  if (!/[<&]/.test(htmlish)) return htmlish.replace(/\s+/g, ' ').trim();
  const $ = cheerio.load(`<body>${htmlish.replace(/<(br|\/p|\/div|\/li)\b[^>]*>/gi, ' $&')}</body>`);
  return $('body').text().replace(/\s+/g, ' ').trim();
}

/** Cut at a word boundary, with an ellipsis, so the summary never ends mid-word. */
export function shortened(text: string, max = SUMMARY_MAX): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, '')}…`;
}

const isHttpUrl = (value: string) => /^https?:\/\//i.test(value);

/** The item's picture: an image enclosure, media:content of an image, or media:thumbnail (also inside media:group). */
function imageOf(item: Element): string | null {
  const candidates: Element[] = [];
  for (const c of children(item)) {
    if (localName(c) === 'group') candidates.push(...children(c));
    else candidates.push(c);
  }
  const attr = (el: Element, name: string) => (el.attribs[name] ?? '').trim();
  const isImage = (el: Element) => {
    const type = attr(el, 'type').toLowerCase();
    const medium = attr(el, 'medium').toLowerCase();
    return type.startsWith('image/') || medium === 'image' || (!type && !medium && /\.(jpe?g|png|gif|webp)(\?|$)/i.test(attr(el, 'url') || attr(el, 'href')));
  };
  const pick = (found: Element | undefined, name: string) => (found && isHttpUrl(attr(found, name)) ? attr(found, name) : null);
  return (
    pick(
      candidates.find((c) => localName(c) === 'enclosure' && isImage(c)),
      'url',
    ) ??
    pick(
      candidates.find((c) => c.name.toLowerCase() === 'link' && attr(c, 'rel') === 'enclosure' && isImage(c)),
      'href',
    ) ??
    pick(
      candidates.find((c) => localName(c) === 'content' && c.name.includes(':') && isImage(c)),
      'url',
    ) ??
    pick(
      candidates.find((c) => localName(c) === 'thumbnail'),
      'url',
    )
  );
}

function atomLink(entry: Element): string {
  const links = children(entry, 'link');
  const alternate = links.find((l) => (l.attribs.rel ?? 'alternate') === 'alternate') ?? links[0];
  return (alternate?.attribs.href ?? '').trim();
}

function item(parts: { key: string; title: string; link: string; summary: string; imageUrl: string | null }): FeedItemData | null {
  const key = (parts.key || parts.link).slice(0, MAX_KEY);
  // Without a guid or a link nothing tells a re-read item from a new one: such items are left out.
  if (!key) return null;
  return { ...parts, key, summary: shortened(plainText(parts.summary)), title: plainText(parts.title) };
}

export function parseFeed(xml: string): ParsedFeed {
  const $ = cheerio.load(xml, { xml: true });
  const root = ($.root().children().toArray() as unknown as XmlNode[]).find(isElement);
  if (!root) throw new FeedParseError('The address did not return an RSS or Atom feed (no XML document).');
  const rootName = localName(root);

  if (rootName === 'feed') {
    const entries = children(root, 'entry').map((entry) =>
      item({
        key: textOf(first(entry, 'id')),
        title: rawText(first(entry, 'title')),
        link: atomLink(entry),
        summary: rawText(first(entry, 'summary') ?? first(entry, 'content')),
        imageUrl: imageOf(entry),
      }),
    );
    return { format: 'atom', title: plainText(rawText(first(root, 'title'))), items: entries.filter((e) => e !== null) };
  }

  if (rootName === 'rss' || rootName === 'rdf') {
    const channel = first(root, 'channel');
    if (rootName === 'rss' && !channel) throw new FeedParseError('The RSS document has no channel.');
    // RSS 2.0 nests items in the channel; RSS 1.0 (RDF) puts them beside it.
    const itemEls = rootName === 'rss' ? children(channel!, 'item') : children(root, 'item');
    const items = itemEls.map((el) =>
      item({
        key: textOf(first(el, 'guid')) || (rootName === 'rdf' ? (el.attribs['rdf:about'] ?? '').trim() : ''),
        title: rawText(first(el, 'title')),
        link: textOf(first(el, 'link')),
        summary: rawText(first(el, 'description') ?? first(el, 'encoded')),
        imageUrl: imageOf(el),
      }),
    );
    return { format: 'rss', title: channel ? plainText(rawText(first(channel, 'title'))) : '', items: items.filter((e) => e !== null) };
  }

  throw new FeedParseError(`The address did not return an RSS or Atom feed (its document is <${root.name}>).`);
}
