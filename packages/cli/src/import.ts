// herald import <file>: the preview (POST /posts/import/preview, writes nothing), printed row
// by row; a confirmation (--yes, or y on a terminal); then POST /posts/import, all or nothing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { str, type Command } from './command.js';
import { CliError, EXIT, usage } from './errors.js';
import { confirm, cut, line, printJson, table } from './output.js';

export const importPosts: Command = {
  words: ['import'],
  summary: 'Preview a CSV or JSON file of posts, then import it',
  args: ['<file>'],
  options: {
    yes: { type: 'boolean', short: 'y', description: 'Import without asking (required without a terminal)' },
    'dry-run': { type: 'boolean', description: 'Print the preview and stop' },
    format: { type: 'string', value: 'csv|json', description: 'The file’s format (default: from its extension, else csv)' },
  },
  details:
    'Columns: docs/post-import.md. A file with a refused row imports nothing (exit 2, IMPORT_INVALID); importing the same file again creates nothing new.',
  async run(ctx) {
    const [file, ...rest] = ctx.args;
    if (!file || rest.length) throw usage('herald import takes one file');
    const format = (str(ctx.values, 'format') ?? (path.extname(file).toLowerCase() === '.json' ? 'json' : 'csv')) as 'csv' | 'json';
    if (format !== 'csv' && format !== 'json') throw usage('--format is csv or json');
    const content = readFileSync(file, 'utf8');
    const { herald } = ctx.client();

    const { data: preview } = await herald.request('POST', '/posts/import/preview', { body: { format, content } });
    const { totals } = preview;
    if (!ctx.json) {
      line(
        ctx.io.stdout,
        table(
          ['row', 'status', 'when', 'accounts', 'content'],
          preview.rows.map((r) => [
            r.row,
            r.status,
            r.when === 'at' ? r.scheduledAt : r.when,
            r.accounts.map((a) => `${a.platform}:${a.name}`).join(' '),
            cut(r.content, 40),
          ]),
        ),
      );
      for (const r of preview.rows) {
        for (const p of r.problems) line(ctx.io.stdout, `  row ${r.row}${r.line ? ` (line ${r.line})` : ''}: ${p.column}: ${p.code}: ${p.message}`);
      }
      line(ctx.io.stdout, `${totals.rows} rows: ${totals.ready} ready, ${totals.invalid} refused, ${totals.alreadyImported} already imported.`);
    }
    const outcome = (result: unknown) => (ctx.json ? printJson(ctx.io, { preview, result }) : undefined);

    if (totals.invalid > 0) {
      if (ctx.json) printJson(ctx.io, { preview, result: null });
      throw new CliError('IMPORT_INVALID', `${totals.invalid} of ${totals.rows} rows refused: nothing imported (fix them and run again)`, EXIT.REFUSED);
    }
    if (ctx.values['dry-run']) return void outcome(null);
    if (totals.ready === 0) {
      if (!ctx.json) line(ctx.io.stdout, 'Nothing to import.');
      return void outcome(null);
    }
    if (!ctx.values.yes) {
      if (!ctx.io.stdin.isTTY) {
        throw new CliError('CONFIRMATION_REQUIRED', 'Not importing: no terminal to confirm on. Pass --yes to import without asking.', EXIT.DECLINED);
      }
      if (!(await confirm(ctx.io, `Import ${totals.ready} post${totals.ready === 1 ? '' : 's'}?`))) {
        throw new CliError('DECLINED', 'Import declined: nothing imported.', EXIT.DECLINED);
      }
    }
    const { data: result } = await herald.request('POST', '/posts/import', { body: { format, content } });
    if (ctx.json) return void outcome(result);
    line(ctx.io.stdout, `Imported: ${result.created} created, ${result.alreadyImported} already imported.`);
  },
};
