// Small text helpers for messages and one-line summaries.

/** The text on one line, cut to `max` characters with an ellipsis. */
export function shorten(text: unknown, max = 60): string {
  const line = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
