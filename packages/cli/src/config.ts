// Where the key lives: $XDG_CONFIG_HOME/herald/config.json, else ~/.config/herald/config.json
// (%APPDATA%\herald\config.json on Windows); the folder 0700, the file 0600, written through a
// temporary file and a rename. HERALD_API_KEY, HERALD_BASE_URL and HERALD_WORKSPACE override
// the file, and the flags (--base-url, --workspace) override both.
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHerald, type Herald } from '../../sdk/src/index.js';
import { CliError, EXIT } from './errors.js';

export interface StoredConfig {
  apiKey?: string;
  baseUrl?: string;
  workspaceId?: string;
}

export const DEFAULT_BASE_URL = 'http://localhost:3000';

export function configPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'herald', 'config.json');
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'herald', 'config.json');
}

export function readConfig(file = configPath()): StoredConfig {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as StoredConfig) : {};
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError('CONFIG_UNREADABLE', `${file} cannot be read (${(error as Error).message}): fix it or run herald logout`, EXIT.USAGE);
  }
}

export function writeConfig(config: StoredConfig, file = configPath()): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(dir, 0o700);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  if (process.platform !== 'win32') chmodSync(temp, 0o600);
  renameSync(temp, file);
}

/** Removes the file; false when there was none. */
export function removeConfig(file = configPath()): boolean {
  try {
    readFileSync(file);
  } catch {
    return false;
  }
  rmSync(file, { force: true });
  return true;
}

export interface Resolved {
  apiKey: string | undefined;
  baseUrl: string;
  workspaceId: string | undefined;
}

export function resolveSettings(flags: { 'base-url'?: string; workspace?: string }, env: NodeJS.ProcessEnv = process.env): Resolved {
  const stored = readConfig(configPath(env));
  return {
    apiKey: env.HERALD_API_KEY || stored.apiKey,
    baseUrl: flags['base-url'] || env.HERALD_BASE_URL || stored.baseUrl || DEFAULT_BASE_URL,
    workspaceId: flags.workspace || env.HERALD_WORKSPACE || stored.workspaceId || undefined,
  };
}

/** A client with the resolved key; exit 3 when there is none. */
export function heraldFrom(flags: { 'base-url'?: string; workspace?: string }, env: NodeJS.ProcessEnv = process.env): { herald: Herald; settings: Resolved } {
  const settings = resolveSettings(flags, env);
  if (!settings.apiKey) {
    throw new CliError('NOT_LOGGED_IN', 'No API key: run `herald login`, or set HERALD_API_KEY', EXIT.AUTH_OR_NETWORK);
  }
  return { herald: createHerald({ apiKey: settings.apiKey, baseUrl: settings.baseUrl, workspaceId: settings.workspaceId }), settings };
}

/** sk_live_abcd…wxyz: enough to recognise a key, not to use it. */
export const maskKey = (key: string) => (key.length > 16 ? `${key.slice(0, 12)}…${key.slice(-4)}` : '…');
