// The client report as a PDF, drawn with pdf-lib (a library built for PDFs; no browser on the
// server): brand, workspace, range, headline numbers with their coverage, a per-day bar chart
// of engagement drawn with vector rectangles, per-network comparison, top posts and the
// published list. The standard Helvetica fonts are used (nothing to embed or ship), so text
// is reduced to what their WinAnsi encoding holds; anything else becomes "?".
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { platformName } from '@/server/platforms/catalogue';
import { formatInZone } from '@/server/shared/time-zone';
import type { ReportPageData } from './report-data';
import { ENGAGEMENT_NOTE, formatCount, NOT_AVAILABLE_NOTE, TOTALS_NOTE, responseTimesText } from './report-words';

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const INK = rgb(0.11, 0.14, 0.2);
const MUTED = rgb(0.38, 0.42, 0.5);
const ACCENT = rgb(0.16, 0.35, 0.85);
const RULE = rgb(0.85, 0.87, 0.9);

/** The room a heading takes: the gap above it, its line of 14 points, the rule and the gap below. */
const HEADING_HEIGHT = 10 + 14 * 1.45 + 8;
/** The room each section's first block needs (and each later block asks for before it starts). */
const CARD_ROW = 48 + 10;
const CHART = 120 + 40;
const NETWORK_ROWS = 32;
const TOP_POST = 50;
const PUBLISHED_POST = 40;
const LINE = 10 * 1.45;

const label = platformName;

class Writer {
  page!: PDFPage;
  y = 0;
  constructor(
    private readonly doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
  ) {
    this.newPage();
  }

  newPage() {
    this.page = this.doc.addPage([A4.width, A4.height]);
    this.y = A4.height - MARGIN;
  }

  /** Room for `height` more points on this page, or a new page. */
  need(height: number) {
    if (this.y - height < MARGIN) this.newPage();
  }

  /** Text the font can encode: characters outside WinAnsi become "?", line breaks spaces. */
  clean(text: string, font: PDFFont = this.regular): string {
    let out = '';
    for (const ch of text.replace(/[\r\n\t]+/g, ' ')) {
      try {
        font.encodeText(ch);
        out += ch;
      } catch {
        out += '?';
      }
    }
    return out;
  }

  /** Lines of at most `width` points. */
  wrap(text: string, size: number, width: number, font: PDFFont = this.regular): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of this.clean(text, font).split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) <= width) {
        line = next;
        continue;
      }
      if (line) lines.push(line);
      // A word longer than the line is cut.
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width && rest.length > 1) {
        let cut = rest.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    if (line) lines.push(line);
    return lines;
  }

  text(text: string, opts: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb>; indent?: number; maxLines?: number } = {}) {
    const size = opts.size ?? 10;
    const font = opts.bold ? this.bold : this.regular;
    const indent = opts.indent ?? 0;
    let lines = this.wrap(text, size, A4.width - 2 * MARGIN - indent, font);
    if (opts.maxLines && lines.length > opts.maxLines) lines = [...lines.slice(0, opts.maxLines - 1), `${lines[opts.maxLines - 1]}...`];
    for (const line of lines) {
      this.need(size * 1.4);
      this.y -= size * 1.2;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color: opts.color ?? INK });
      this.y -= size * 0.25;
    }
  }

  gap(points: number) {
    this.y -= points;
  }

  /**
   * A section's heading, on the same page as the first `keepWith` points of what follows it (its
   * first row, chart or entry): where they do not fit, both start the next page, so a heading is
   * never left alone at the foot of a page.
   */
  heading(text: string, keepWith: number) {
    this.need(HEADING_HEIGHT + keepWith);
    this.gap(10);
    this.text(text, { size: 14, bold: true });
    this.page.drawLine({ start: { x: MARGIN, y: this.y - 2 }, end: { x: A4.width - MARGIN, y: this.y - 2 }, thickness: 0.5, color: RULE });
    this.gap(8);
  }
}

function headlineCards(w: Writer, data: ReportPageData) {
  const h = data.headline;
  const cards: [string, number | null][] = [
    ['Posts published', h.posts],
    ['Accounts posted to', h.targets],
    ['Engagement', h.engagement],
    ['Impressions', h.impressions],
    ['Reach', h.reach],
    ['Views', h.views],
  ];
  const perRow = 3;
  const gap = 10;
  const cardWidth = (A4.width - 2 * MARGIN - gap * (perRow - 1)) / perRow;
  const cardHeight = CARD_ROW - gap;
  for (let i = 0; i < cards.length; i += perRow) {
    w.need(CARD_ROW);
    const top = w.y;
    cards.slice(i, i + perRow).forEach(([label, value], j) => {
      const x = MARGIN + j * (cardWidth + gap);
      w.page.drawRectangle({ x, y: top - cardHeight, width: cardWidth, height: cardHeight, borderColor: RULE, borderWidth: 1, color: rgb(0.97, 0.98, 0.99) });
      w.page.drawText(w.clean(label), { x: x + 8, y: top - 16, size: 9, font: w.regular, color: MUTED });
      w.page.drawText(formatCount(value), { x: x + 8, y: top - 38, size: 18, font: w.bold, color: INK });
    });
    w.y = top - cardHeight - gap;
  }
  w.text(`${h.coverage}. ${TOTALS_NOTE} ${NOT_AVAILABLE_NOTE}`, { size: 9, color: MUTED });
}

/** Engagement per day as vector bars, with the highest value and the first and last day labelled. */
function dayChart(w: Writer, data: ReportPageData) {
  const chartHeight = CHART - 40;
  w.need(CHART);
  const width = A4.width - 2 * MARGIN;
  const base = w.y - chartHeight - 4;
  const values = data.days.map((d) => d.engagement ?? 0);
  const max = Math.max(0, ...values);
  const slot = width / Math.max(1, data.days.length);
  const barWidth = Math.max(0.5, slot * 0.75);
  w.page.drawLine({ start: { x: MARGIN, y: base }, end: { x: MARGIN + width, y: base }, thickness: 0.75, color: MUTED });
  data.days.forEach((d, i) => {
    if (d.engagement === null || max === 0) return;
    const height = (d.engagement / max) * chartHeight;
    if (height > 0) w.page.drawRectangle({ x: MARGIN + i * slot + (slot - barWidth) / 2, y: base, width: barWidth, height, color: ACCENT });
  });
  w.page.drawText(`Highest day: ${formatCount(max === 0 ? (values.length ? 0 : null) : max)}`, {
    x: MARGIN,
    y: w.y - 10,
    size: 8,
    font: w.regular,
    color: MUTED,
  });
  const first = data.days[0]?.date ?? '';
  const last = data.days.at(-1)?.date ?? '';
  w.page.drawText(first, { x: MARGIN, y: base - 12, size: 8, font: w.regular, color: MUTED });
  w.page.drawText(last, { x: MARGIN + width - w.regular.widthOfTextAtSize(last, 8), y: base - 12, size: 8, font: w.regular, color: MUTED });
  w.y = base - 20;
  w.text('Engagement per day (days without a reading show no bar).', { size: 9, color: MUTED });
}

export async function renderReportPdf(data: ReportPageData): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${data.title} (${data.range.from} to ${data.range.to})`);
  doc.setAuthor(data.brand.name);
  doc.setSubject(`Post results for ${data.workspace.name}`);
  doc.setCreator('Herald');
  doc.setCreationDate(new Date(data.generatedAt));
  const w = new Writer(doc, await doc.embedFont(StandardFonts.Helvetica), await doc.embedFont(StandardFonts.HelveticaBold));

  w.text(data.brand.name, { size: 11, bold: true, color: ACCENT });
  w.gap(6);
  w.text(data.title, { size: 20, bold: true });
  w.text(`${data.workspace.name} - ${data.range.from} to ${data.range.to} (${data.workspace.timeZone})`, { size: 11, color: MUTED });

  w.heading('Headline numbers', CARD_ROW);
  headlineCards(w, data);

  w.heading('Replies to comments, messages and reviews', 30);
  w.text(responseTimesText(data.responseTimes), { size: 11 });

  w.heading('Engagement per day', CHART);
  dayChart(w, data);

  w.heading('By network', data.networks.length ? NETWORK_ROWS : LINE);
  if (data.networks.length === 0) w.text('Nothing was published in this period.', { color: MUTED });
  for (const n of data.networks) {
    w.need(NETWORK_ROWS);
    w.text(`${label(n.platform)}: ${n.targets} post${n.targets === 1 ? '' : 's'}`, { bold: true });
    w.text(
      `Engagement ${formatCount(n.engagement)} · Impressions ${formatCount(n.impressions)} · Reach ${formatCount(n.reach)} · Views ${formatCount(n.views)} · Tracked link clicks ${formatCount(n.clicks)} · ${n.targetsWithReading} of ${n.targets} with a reading`,
      { size: 9, color: MUTED, indent: 12 },
    );
  }

  w.heading('Top posts', data.topPosts.length ? TOP_POST : LINE);
  if (data.topPosts.length === 0) w.text('No post has a reading yet.', { color: MUTED });
  for (const p of data.topPosts) {
    w.need(TOP_POST);
    w.text(`${p.rank}. ${label(p.platform)} · ${p.accountName} · ${formatInZone(p.publishedAt, data.workspace.timeZone)}`, { bold: true });
    w.text(p.content, { indent: 12, maxLines: 3 });
    w.text(
      `Engagement ${formatCount(p.latest.engagement)} · Impressions ${formatCount(p.latest.metrics.impressions)} · Reach ${formatCount(p.latest.metrics.reach)} · Tracked link clicks ${formatCount(p.clicks)}`,
      { size: 9, color: MUTED, indent: 12 },
    );
    if (p.permalink) w.text(p.permalink, { size: 8, color: ACCENT, indent: 12 });
    w.gap(4);
  }

  w.heading(`Published (${data.published.length})`, data.published.length ? PUBLISHED_POST : LINE);
  if (data.published.length === 0) w.text('Nothing was published in this period.', { color: MUTED });
  for (const p of data.published) {
    w.need(PUBLISHED_POST);
    w.text(formatInZone(p.publishedAt, data.workspace.timeZone), { size: 9, bold: true });
    w.text(p.content, { indent: 12, maxLines: 2 });
    w.text(p.targets.map((t) => `${label(t.platform)} (${t.accountName}): engagement ${formatCount(t.engagement)}`).join(' · '), {
      size: 8,
      color: MUTED,
      indent: 12,
    });
    w.gap(4);
  }

  w.gap(10);
  w.text(`Prepared by ${data.brand.name} with Herald on ${data.generatedAt.slice(0, 10)}. ${ENGAGEMENT_NOTE}`, {
    size: 8,
    color: MUTED,
  });

  const pages = doc.getPages();
  pages.forEach((page, i) => {
    const label = `${i + 1} / ${pages.length}`;
    page.drawText(label, { x: A4.width - MARGIN - w.regular.widthOfTextAtSize(label, 8), y: MARGIN / 2, size: 8, font: w.regular, color: MUTED });
  });
  return doc.save();
}
