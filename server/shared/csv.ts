// CSV (RFC 4180) both ways: the cell encoder every export uses, and the parser the post
// import reads files with. Spreadsheets run a cell that starts with =, +, -, @ (or a tab or
// carriage return) as a formula, so the encoder defuses such text with a leading apostrophe;
// a run of apostrophes before one of those characters gets one more, so `readCell` can take
// exactly one off again and an exported file reads back to the same text.

const DEFUSE = /^'*[=+\-@\t\r]/;

/** RFC 4180: quoted when needed, quotes doubled; a leading =, +, - or @ is defused for spreadsheets. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && DEFUSE.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The text a cell written by csvCell held: one defusing apostrophe taken off. */
export function readCell(text: string): string {
  return text.startsWith("'") && DEFUSE.test(text.slice(1)) ? text.slice(1) : text;
}

/** One record of a file, with the line it starts on (1-based) for messages. */
export interface CsvRecord {
  line: number;
  cells: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

/**
 * Parses RFC 4180 text: fields separated by commas, records by CRLF or LF (a bare CR too);
 * a quoted field may hold commas, quotes (doubled) and line breaks. A byte order mark is
 * skipped; blank lines are dropped. Throws CsvSyntaxError naming the line of an unclosed
 * quote or of text after a closing quote.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let cells: string[] = [];
  let recordLine = 1;
  let cell = '';
  const n = text.length;
  const endRecord = () => {
    cells.push(cell);
    cell = '';
    if (!(cells.length === 1 && cells[0] === '')) records.push({ line: recordLine, cells });
    cells = [];
  };
  while (i < n) {
    const c = text[i]!;
    if (c === '"' && cell === '') {
      const opened = line;
      i++;
      let quoted = '';
      for (;;) {
        const q = text.indexOf('"', i);
        if (q === -1) throw new CsvSyntaxError(`The quote opened on line ${opened} is never closed`, opened);
        const chunk = text.slice(i, q);
        quoted += chunk;
        line += countLineBreaks(chunk);
        if (text[q + 1] === '"') {
          quoted += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        throw new CsvSyntaxError(`Line ${line}: text after a closing quote (a quote inside a quoted field is written twice: "")`, line);
      }
      // An empty quoted field ("") stays distinct from "no field" only by position, which is all RFC 4180 asks.
      cell = quoted;
      if (next === undefined) break;
      continue;
    }
    if (c === ',') {
      cells.push(cell);
      cell = '';
      i++;
    } else if (c === '\n' || c === '\r') {
      endRecord();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      recordLine = line;
    } else {
      // Unquoted text runs to the next separator; a quote inside it is kept as written.
      let j = i;
      while (j < n && text[j] !== ',' && text[j] !== '\n' && text[j] !== '\r') j++;
      cell += text.slice(i, j);
      i = j;
    }
  }
  if (cell !== '' || cells.length > 0) endRecord();
  return records;
}

function countLineBreaks(s: string): number {
  let count = 0;
  for (let k = 0; k < s.length; k++) {
    const ch = s.charCodeAt(k);
    if (ch === 10) count++;
    else if (ch === 13 && s.charCodeAt(k + 1) !== 10) count++;
  }
  return count;
}
