// Counting what a step costs the database: every statement this process sends while a function
// runs, read on the driver (every pool in the process, Herald's and the job queue's, runs its
// statements through pg.Client#query). The guards on a webhook's and a collection's cost use it.
import pg from 'pg';

/** A statement with its parameters and value lists folded, to compare two runs' statements by shape. */
export const statementShape = (text: string) => text.replace(/\$\d+/g, '$').replace(/\(\$(,\$)*\)(, \(\$(,\$)*\))*/g, '(…)');

/** Statements sent by this process while `fn` runs, in order, whitespace collapsed. */
export async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    const text = typeof config === 'string' ? config : ((config as { text?: string } | undefined)?.text ?? '');
    seen.push(text.replace(/\s+/g, ' ').trim());
    return (original as (...args: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof original;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = original;
  }
  return seen;
}
