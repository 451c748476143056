// herald: the command line of Herald's public API, on @herald/sdk. `run()` takes the
// arguments and streams and returns the exit code (README.md, "Exit codes").
import { parseArgs } from 'node:util';
import { GLOBAL_OPTIONS, type Command, type Context, type OptionSpec } from './command.js';
import { heraldFrom } from './config.js';
import { EXIT, report, usage } from './errors.js';
import { importPosts } from './import.js';
import { webhooksListen } from './listen.js';
import { login, logout } from './login.js';
import { mediaUpload } from './media.js';
import { line, printError, processIo, type Io } from './output.js';
import { postsCancel, postsCreate, postsGet, postsList, postsPublish } from './posts.js';

export const COMMANDS: Command[] = [login, logout, postsCreate, postsList, postsGet, postsPublish, postsCancel, mediaUpload, importPosts, webhooksListen];
const VERSION = '0.1.0';

function optionHelp(options: Record<string, OptionSpec>): string[] {
  const rows = Object.entries(options).map(([name, o]) => [
    `${o.short ? `-${o.short}, ` : ''}--${name}${o.value ? ` <${o.value}>` : ''}`,
    o.description + (o.multiple ? ' (repeatable)' : ''),
  ]);
  const width = Math.max(0, ...rows.map(([flag]) => flag!.length));
  return rows.map(([flag, text]) => `  ${flag!.padEnd(width)}  ${text}`);
}

function commandHelp(command: Command): string {
  return [
    `Usage: herald ${command.words.join(' ')}${command.args ? ` ${command.args.join(' ')}` : ''} [options]`,
    '',
    command.summary + '.',
    ...(command.details ? ['', command.details] : []),
    ...(Object.keys(command.options).length ? ['', 'Options:', ...optionHelp(command.options)] : []),
    '',
    'Global options:',
    ...optionHelp(GLOBAL_OPTIONS),
  ].join('\n');
}

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.words.join(' ').length + (c.args ? c.args.join(' ').length + 1 : 0)));
  return [
    'Usage: herald <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${`${c.words.join(' ')}${c.args ? ` ${c.args.join(' ')}` : ''}`.padEnd(width)}  ${c.summary}`),
    '',
    'Global options:',
    ...optionHelp(GLOBAL_OPTIONS),
    '',
    'Exit codes: 0 ok, 1 usage error, 2 Herald refused (its error code is printed), 3 network or authentication problem, 4 confirmation declined.',
    'herald <command> --help describes a command.',
  ].join('\n');
}

/** Every option of every command, so that the words can be told from option values in one pass. */
function allOptions() {
  const merged: Record<string, OptionSpec> = { ...GLOBAL_OPTIONS, version: { type: 'boolean', description: '' } };
  for (const c of COMMANDS) Object.assign(merged, c.options);
  return Object.fromEntries(
    Object.entries(merged).map(([name, o]) => [name, { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) }]),
  );
}

export async function run(argv: string[], io: Io = processIo(), env: NodeJS.ProcessEnv = process.env, interrupted?: Promise<string>): Promise<number> {
  let json = argv.includes('--json');
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: argv, options: allOptions(), allowPositionals: true, strict: true });
    } catch (error) {
      throw usage((error as Error).message);
    }
    const { values, positionals } = parsed;
    json = Boolean(values.json);
    if (values.version) {
      line(io.stdout, VERSION);
      return EXIT.OK;
    }
    const command = COMMANDS.find((c) => c.words.every((word, i) => positionals[i] === word));
    if (!command) {
      if (values.help || positionals.length === 0) {
        line(values.help ? io.stdout : io.stderr, mainHelp());
        return values.help ? EXIT.OK : EXIT.USAGE;
      }
      const group = COMMANDS.filter((c) => c.words[0] === positionals[0]);
      throw usage(
        group.length
          ? `herald ${positionals[0]} takes one of: ${group.map((c) => c.words.slice(1).join(' ')).join(', ')}`
          : `unknown command ${positionals.join(' ')} (herald --help lists them)`,
      );
    }
    if (values.help) {
      line(io.stdout, commandHelp(command));
      return EXIT.OK;
    }
    const allowed = new Set([...Object.keys(GLOBAL_OPTIONS), ...Object.keys(command.options)]);
    for (const name of Object.keys(values)) {
      if (!allowed.has(name)) throw usage(`herald ${command.words.join(' ')} takes no --${name} (see --help)`);
    }
    const ctx: Context = {
      io,
      env,
      values: values as Context['values'],
      args: positionals.slice(command.words.length),
      json,
      client: () => heraldFrom(values as { 'base-url'?: string; workspace?: string }, env),
      interrupted: interrupted ?? new Promise<string>(() => {}),
    };
    return (await command.run(ctx)) ?? EXIT.OK;
  } catch (error) {
    const reported = report(error);
    printError(io, json, reported);
    return reported.exitCode;
  }
}

/** Started as a program (dist/herald.js): Ctrl-C ends a long-running command cleanly, a second one at once. */
export function main(): void {
  const interrupted = new Promise<string>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        resolve(signal);
        process.once(signal, () => process.exit(130));
      });
    }
  });
  run(process.argv.slice(2), processIo(), process.env, interrupted).then((code) => {
    process.exitCode = code;
    // Nothing should be left running, but a stuck socket must not keep the program alive.
    setTimeout(() => process.exit(code), 1000).unref();
  });
}
