// The CLI's exit codes and the errors that choose them. A refusal from Herald (HeraldError)
// maps to 2, or 3 when it is about reaching Herald or the key itself (README.md, "Exit codes").
import { HeraldError } from '../../sdk/src/index.js';

export const EXIT = {
  OK: 0,
  /** Unknown command or option, missing argument, unreadable file. */
  USAGE: 1,
  /** Herald refused the call: the error code is printed. */
  REFUSED: 2,
  /** No answer from Herald, no key configured, or the key was refused (401). */
  AUTH_OR_NETWORK: 3,
  /** A confirmation was declined, or could not be asked (no terminal and no --yes). */
  DECLINED: 4,
} as const;

/** An error the CLI reports itself: its code is printed, its exit code returned. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export const usage = (message: string) => new CliError('USAGE', message, EXIT.USAGE);

export interface Reported {
  exitCode: number;
  code: string;
  message: string;
  status?: number;
  field?: string;
  requestId?: string;
}

export function report(error: unknown): Reported {
  if (error instanceof CliError) return { exitCode: error.exitCode, code: error.code, message: error.message };
  if (error instanceof HeraldError) {
    const exitCode = error.status === 0 || error.status === 401 ? EXIT.AUTH_OR_NETWORK : EXIT.REFUSED;
    const message = error.messages.length > 1 ? error.messages.join('; ') : error.message;
    return { exitCode, code: error.code, message, status: error.status, field: error.field, requestId: error.requestId };
  }
  const e = error as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT' || e?.code === 'EISDIR' || e?.code === 'EACCES') return { exitCode: EXIT.USAGE, code: e.code, message: e.message };
  return { exitCode: EXIT.USAGE, code: 'ERROR', message: e instanceof Error ? e.message : String(error) };
}
