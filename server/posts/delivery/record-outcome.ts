// Recording a target's outcome: the target, its account's health and the outcome event in one
// statement, only while the target is still `publishing` by the attempt that decided it.
import { setTimeout as sleep } from 'node:timers/promises';
import { db } from '@/server/db/client';
import { Prisma } from '@/server/generated/prisma/client';

/** Guards the connection update and the events of an outcome: only when `t` changed a row. */
export const TARGET_CHANGED = Prisma.sql`EXISTS (SELECT 1 FROM t)`;

/**
 * One statement records a target's outcome, the connection's health and the event,
 * atomically — and only while the target is still `publishing` by this attempt (the `target`
 * statement must say so and RETURN the row): after a takeover the outcome is already
 * settled and a late answer writes nothing. The platform's answer is known here, so a brief
 * database outage is waited out (bounded) rather than losing it.
 */
export async function recordOutcome(parts: { target: Prisma.Sql; connection: Prisma.Sql; events: Prisma.Sql[] }): Promise<void> {
  const ctes = [
    Prisma.sql`t AS (${parts.target})`,
    Prisma.sql`c AS (${parts.connection})`,
    ...parts.events.map((e, i) => Prisma.sql`${Prisma.raw(`e${i}`)} AS (${e})`),
  ];
  const statement = Prisma.sql`WITH ${Prisma.join(ctes, ', ')} SELECT 1`;
  for (let attempt = 1; ; attempt++) {
    try {
      await db.$executeRaw(statement);
      return;
    } catch (err) {
      if (attempt >= OUTCOME_WRITE_ATTEMPTS) throw err;
      await sleep(Math.min(8_000, 500 * 2 ** attempt));
    }
  }
}

/** About 30 s of retries (1 + 2 + 4 + 8 + 8 + 8): a database restart, not a long outage. */
const OUTCOME_WRITE_ATTEMPTS = 7;
