// What every command is: its words (`posts create`), its options, and what it runs.
import type { Herald } from '../../sdk/src/index.js';
import type { Resolved } from './config.js';
import type { Io } from './output.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** The value's name in the help (`--text <text>`). */
  value?: string;
  description: string;
}

export type Values = Record<string, string | boolean | string[] | undefined>;

export interface Context {
  io: Io;
  env: NodeJS.ProcessEnv;
  values: Values;
  args: string[];
  json: boolean;
  /** The client from the key and settings in force (exit 3 when there is no key). */
  client(): { herald: Herald; settings: Resolved };
  /** Registers clean-up for Ctrl-C (SIGINT/SIGTERM); returns the signal's promise. */
  interrupted: Promise<string>;
}

export interface Command {
  words: string[];
  summary: string;
  /** Positional arguments in the usage line (`<id>`). */
  args?: string[];
  options: Record<string, OptionSpec>;
  details?: string;
  run(ctx: Context): Promise<number | void>;
}

export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: 'Machine-readable JSON on stdout (errors as JSON on stderr)' },
  'base-url': { type: 'string', value: 'url', description: 'Herald’s address (default: HERALD_BASE_URL, the config file, http://localhost:3000)' },
  workspace: { type: 'string', value: 'id', description: 'Act for a managed workspace (agency keys; X-Service-Workspace; also HERALD_WORKSPACE)' },
  help: { type: 'boolean', short: 'h', description: 'This help' },
};

export const str = (values: Values, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};
export const list = (values: Values, name: string): string[] => {
  const value = values[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
};
