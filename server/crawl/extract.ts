// What a visit keeps of a page: title, meta description, canonical URL, headings and the main
// text. cheerio reads the head and headings; Mozilla's Readability (on a linkedom DOM) finds
// the main text the way Firefox's reader view does, with the body's text as the fallback.
import { Readability } from '@mozilla/readability';
import * as cheerio from 'cheerio';
import { parseHTML } from 'linkedom';

export interface Heading {
  level: number;
  text: string;
}

export interface Extracted {
  title: string | null;
  metaDescription: string | null;
  canonical: string | null;
  headings: Heading[];
  text: string | null;
}

/** Longest main text kept per visit. */
export const MAX_TEXT_CHARS = 100_000;
const MAX_HEADINGS = 200;

const clean = (s: string | undefined | null): string | null => {
  const t = (s ?? '').replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
};

function resolveUrl(href: string | null, base: string): string | null {
  if (!href) return null;
  try {
    return new URL(href, base).toString();
  } catch {
    return null;
  }
}

/**
 * Where one block of a page ends and the next begins, a reader sees a break; the DOM's text
 * has none ("<h2>Strategy</h2><p>We grow</p>" reads "StrategyWe grow"). A space after every
 * block-level closing tag and line break keeps words apart in the text both extractors read.
 */
const BLOCK_END =
  /<\/(?:p|div|h[1-6]|li|ul|ol|dl|dt|dd|section|article|header|footer|nav|aside|main|blockquote|pre|figure|figcaption|table|tr|td|th|caption|address|details|summary|form|fieldset|legend|hr)\s*>|<br\s*\/?>/gi;
export const spaceBlocks = (html: string): string => html.replace(BLOCK_END, '$& ');

function mainText(html: string): string | null {
  try {
    const { document } = parseHTML(html);
    const article = new Readability(document as unknown as Document, { charThreshold: 100 }).parse();
    return clean(article?.textContent);
  } catch {
    return null;
  }
}

export function extractPage(html: string, pageUrl: string): Extracted {
  const spaced = spaceBlocks(html);
  const $ = cheerio.load(spaced);
  const headings: Heading[] = [];
  $('h1, h2, h3, h4, h5, h6').each((_, el) => {
    const text = clean($(el).text());
    if (text && headings.length < MAX_HEADINGS) headings.push({ level: Number(el.tagName.slice(1)), text });
  });
  const title = clean($('head > title').first().text()) ?? clean($('title').first().text());
  const metaDescription = clean($('meta[name="description" i]').attr('content'));
  const canonical = resolveUrl(clean($('link[rel~="canonical" i]').attr('href')), pageUrl);
  $('script, style, noscript, template').remove();
  const text = mainText(spaced) ?? clean($('body').text());
  return { title, metaDescription, canonical, headings, text: text ? text.slice(0, MAX_TEXT_CHARS) : null };
}
