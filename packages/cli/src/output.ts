// What the CLI prints: JSON for programs (--json), aligned tables and short lines for people,
// a progress bar on a terminal's stderr, and the questions it asks on a terminal.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { Reported } from './errors.js';

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
}

export const processIo = (): Io => ({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });

export const line = (stream: NodeJS.WritableStream, text = '') => stream.write(`${text}\n`);
export const printJson = (io: Io, value: unknown) => line(io.stdout, JSON.stringify(value, null, 2));

export function printError(io: Io, json: boolean, error: Reported): void {
  if (json) {
    line(
      io.stderr,
      JSON.stringify({
        error: { code: error.code, message: error.message, status: error.status, field: error.field, requestId: error.requestId },
        exitCode: error.exitCode,
      }),
    );
    return;
  }
  const details = [error.field && `field: ${error.field}`, error.requestId && `request id: ${error.requestId}`].filter(Boolean).join(', ');
  line(io.stderr, `herald: ${error.code}: ${error.message}${details ? ` (${details})` : ''}`);
}

/** One line of text, cut to `max` characters with an ellipsis; line breaks become spaces. */
export function cut(text: string | null | undefined, max: number): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Columns padded to their widest cell, two spaces apart; the header in capitals. */
export function table(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => [...(row[i] ?? '')].length)));
  const render = (row: string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i]! - [...cell].length)))
      .join('  ')
      .trimEnd();
  return [render(headers.map((h) => h.toUpperCase())), ...cells.map(render)].join('\n');
}

const units = ['B', 'KiB', 'MiB', 'GiB'];
export function bytes(n: number): string {
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** `[█████·····]  52%  1.2 MiB / 2.3 MiB`, redrawn in place with \r; `done()` ends the line. */
export function progressBar(stream: Io['stderr'], label: string) {
  let last = -1;
  return {
    update(sent: number, total: number) {
      const ratio = total > 0 ? Math.min(1, sent / total) : 1;
      const percent = Math.floor(ratio * 100);
      if (percent === last) return;
      last = percent;
      const width = Math.max(10, Math.min(30, (stream.columns ?? 80) - label.length - 40));
      const filled = Math.round(ratio * width);
      stream.write(`\r${label} [${'█'.repeat(filled)}${'·'.repeat(width - filled)}] ${String(percent).padStart(3)}%  ${bytes(sent)} / ${bytes(total)}`);
    },
    done() {
      if (last >= 0) stream.write('\n');
    },
  };
}

/** Asks one question on the terminal; `hidden` echoes nothing (an API key). */
export async function ask(io: Io, question: string, opts: { hidden?: boolean } = {}): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, callback) {
      if (!muted) io.stderr.write(chunk);
      callback();
    },
  });
  const rl = createInterface({ input: io.stdin, output, terminal: Boolean(io.stdin.isTTY) });
  try {
    return await new Promise<string>((resolve, reject) => {
      rl.once('close', () => reject(new Error('no answer (end of input)')));
      rl.question(question, (answer) => resolve(answer.trim()));
      muted = Boolean(opts.hidden);
    });
  } finally {
    if (opts.hidden) io.stderr.write('\n');
    rl.removeAllListeners('close');
    rl.close();
  }
}

export async function confirm(io: Io, question: string): Promise<boolean> {
  const answer = await ask(io, `${question} [y/N] `);
  return /^y(es)?$/i.test(answer);
}
