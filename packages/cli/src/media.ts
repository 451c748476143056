// herald media upload <file>: upload URL, PUT of the bytes (a progress bar on a terminal's
// stderr), complete; prints the asset id.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { str, type Command } from './command.js';
import { usage } from './errors.js';
import { line, printJson, progressBar } from './output.js';

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
};

export const mediaUpload: Command = {
  words: ['media', 'upload'],
  summary: 'Upload an image or a video; prints the asset id',
  args: ['<file>'],
  options: {
    type: { type: 'string', value: 'media type', description: 'The file’s media type (default: from its extension)' },
    name: { type: 'string', value: 'name', description: 'The name in the media library (default: the file name)' },
  },
  async run(ctx) {
    const [file, ...rest] = ctx.args;
    if (!file || rest.length) throw usage('herald media upload takes one file');
    const contentType = str(ctx.values, 'type') ?? TYPES[path.extname(file).toLowerCase()];
    if (!contentType) throw usage(`Cannot tell the media type of ${file}: pass --type (${[...new Set(Object.values(TYPES))].join(', ')})`);
    if (!statSync(file).isFile()) throw usage(`${file} is not a file`);
    const bytes = readFileSync(file);
    const { herald } = ctx.client();
    const bar = ctx.io.stderr.isTTY && !ctx.json ? progressBar(ctx.io.stderr, path.basename(file)) : undefined;
    try {
      const { data } = await herald.media.upload(bytes, {
        contentType,
        name: str(ctx.values, 'name') ?? path.basename(file),
        onProgress: bar ? (sent, total) => bar.update(sent, total) : undefined,
      });
      bar?.done();
      if (ctx.json) printJson(ctx.io, data);
      else line(ctx.io.stdout, data.id);
    } catch (error) {
      bar?.done();
      throw error;
    }
  },
};
