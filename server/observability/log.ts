// Herald's log lines. One JSON object per line on stdout (info) or stderr (warn, error) —
// `{ time, level, component, msg, requestId?, job?, …fields, error? }` — so a log pipeline can
// index them; LOG_FORMAT=text prints `[component] msg` for a terminal. The request id of the
// HTTP request (or the job) being served is taken from the async context, so every line a
// request causes carries it without passing it around; events record it, and webhook
// deliveries and jobs that come from them log it again (docs/deploy.md → Operations).
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { env } from '@/server/config/env';

export interface LogContext {
  requestId?: string;
  /** `<job name>#<attempt>` while a job runs. */
  job?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

/** Runs `fn` with the context merged over the current one. */
export function withLogContext<T>(context: LogContext, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...context }, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** A client's X-Request-Id when it is a sane token (≤ 128 visible ASCII), else a new one. */
export function requestIdFrom(headers: Headers): string {
  const given = headers.get('x-request-id');
  return given && /^[\x21-\x7e]{1,128}$/.test(given) ? given : randomUUID();
}

type Level = 'info' | 'warn' | 'error';
type Fields = Record<string, unknown>;

function errorFields(err: unknown): Fields {
  if (err === undefined) return {};
  if (err instanceof Error) return { error: { name: err.name, message: err.message, stack: err.stack?.split('\n').slice(0, 8).join('\n') } };
  return { error: { message: String(err) } };
}

function write(level: Level, component: string, msg: string, fields: Fields = {}, err?: unknown): void {
  const context = storage.getStore();
  let format: 'json' | 'text' = 'json';
  try {
    format = env.logFormat();
  } catch {
    // A bad LOG_FORMAT is reported by npm start's configuration check; logging goes on.
  }
  if (format === 'text') {
    const extra = err === undefined ? [] : [err instanceof Error ? err.message : err];
    (level === 'info' ? console.log : level === 'warn' ? console.warn : console.error)(`[${component}] ${msg}`, ...extra);
    return;
  }
  const line = JSON.stringify({ time: new Date().toISOString(), level, component, msg, ...context, ...fields, ...errorFields(err) });
  (level === 'info' ? process.stdout : process.stderr).write(`${line}\n`);
}

export const log = {
  info: (component: string, msg: string, fields?: Fields) => write('info', component, msg, fields),
  warn: (component: string, msg: string, err?: unknown, fields?: Fields) => write('warn', component, msg, fields, err),
  error: (component: string, msg: string, err?: unknown, fields?: Fields) => write('error', component, msg, fields, err),
};
