// Failed sign-ins, counted per account (the email typed, whether or not an account has it, so
// the count says nothing about which emails exist) and per address, in PostgreSQL so every
// instance counts the same attempts. After a few free failures each further attempt must wait
// twice as long as the one before; then the key is locked for a while. Numbers in
// docs/decisions.md ("Protecting staff accounts").
//
// An attempt is counted before its password is checked: one statement takes it, refusing it
// while the key waits, so a burst of parallel guesses cannot all slip through one open gate.
// A successful sign-in gives the account its slate back (and the address its one attempt).
// The same gate, under keys of its own, slows password-reset requests (password-reset.ts).
import { Prisma } from '@/server/generated/prisma/client';
import { db } from '@/server/db/client';

export interface ThrottlePolicy {
  /** Failures answered at once. */
  free: number;
  /** The failure that locks the key. */
  lockAt: number;
  lockSeconds: number;
  /** A key with no failure for this long starts again from zero. */
  forgetSeconds: number;
}

export const ACCOUNT_POLICY: ThrottlePolicy = { free: 5, lockAt: 10, lockSeconds: 15 * 60, forgetSeconds: 60 * 60 };
/** An office behind one address signs many people in: more room, then the same shape. */
export const ADDRESS_POLICY: ThrottlePolicy = { free: 20, lockAt: 50, lockSeconds: 15 * 60, forgetSeconds: 60 * 60 };

/** The wait after `failures` failures: none, then 2 s doubling each time, then the lock. */
export function waitAfter(failures: number, policy: ThrottlePolicy): number {
  if (failures >= policy.lockAt) return policy.lockSeconds;
  if (failures < policy.free) return 0;
  return 2 ** (failures - policy.free + 1);
}

export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
export const addressKey = (address: string) => `address:${address}`;

/** The same rule as waitAfter, in SQL over the count just written. */
function retrySql(failures: Prisma.Sql, now: Date, p: ThrottlePolicy): Prisma.Sql {
  return Prisma.sql`CASE
    WHEN ${failures} >= ${p.lockAt} THEN ${now}::timestamp + make_interval(secs => ${p.lockSeconds})
    WHEN ${failures} >= ${p.free} THEN ${now}::timestamp + make_interval(secs => power(2, ${failures} - ${p.free} + 1))
    ELSE NULL END`;
}

export type TakeResult =
  | { ok: true; failures: number }
  /** Refused unchecked: the key waits until `retryAt`; `locked` when it is the lock. */
  | { ok: false; retryAt: Date; locked: boolean };

/** Takes one attempt for a key: counted, or refused while the key waits. */
async function take(key: string, policy: ThrottlePolicy, now: Date, again = true): Promise<TakeResult> {
  const forgotten = Prisma.sql`t."lastFailedAt" < ${now}::timestamp - make_interval(secs => ${policy.forgetSeconds})`;
  const next = Prisma.sql`(CASE WHEN ${forgotten} THEN 1 ELSE t.failures + 1 END)`;
  const rows = await db.$queryRaw<Array<{ failures: number }>>`
    INSERT INTO "SignInThrottle" AS t (key, failures, "lastFailedAt", "retryAt")
    VALUES (${key}, 1, ${now}::timestamp, ${retrySql(Prisma.sql`1`, now, policy)})
    ON CONFLICT (key) DO UPDATE SET
      failures = ${next},
      "lastFailedAt" = ${now}::timestamp,
      "retryAt" = ${retrySql(next, now, policy)}
    WHERE t."retryAt" IS NULL OR t."retryAt" <= ${now}::timestamp
    RETURNING failures`;
  if (rows[0]) return { ok: true, failures: rows[0].failures };
  const row = await db.signInThrottle.findUnique({ where: { key } });
  // The wait ended between the two statements (another instance's clock): take it once more.
  if (!row?.retryAt || row.retryAt <= now) return again ? take(key, policy, now, false) : { ok: false, retryAt: now, locked: false };
  return { ok: false, retryAt: row.retryAt, locked: row.failures >= policy.lockAt };
}

/** Gives back an attempt taken: the count as it was, and no wait it caused. */
async function giveBack(key: string, policy: ThrottlePolicy): Promise<void> {
  await db.$executeRaw`
    UPDATE "SignInThrottle" AS t SET
      failures = greatest(t.failures - 1, 0),
      "retryAt" = CASE WHEN t.failures - 1 < ${policy.free} THEN NULL ELSE t."retryAt" END
    WHERE key = ${key}`;
}

export type AttemptGate = { ok: true; accountFailures: number; addressFailures: number } | { ok: false; retryAt: Date; locked: boolean };

/**
 * Takes one attempt under each key, in order: refused (unchecked, and nothing of it counted)
 * while any key waits; otherwise counted against every key. The same gate serves sign-ins and
 * anything else worth slowing down per person and per address (password-reset requests).
 */
export async function takeAttempts(
  keys: ReadonlyArray<{ key: string; policy: ThrottlePolicy }>,
  now = new Date(),
): Promise<{ ok: true; failures: number[] } | { ok: false; retryAt: Date; locked: boolean }> {
  const failures: number[] = [];
  for (const [i, { key, policy }] of keys.entries()) {
    const taken = await take(key, policy, now);
    if (!taken.ok) {
      for (const earlier of keys.slice(0, i)) await giveBack(earlier.key, earlier.policy);
      return taken;
    }
    failures.push(taken.failures);
  }
  return { ok: true, failures };
}

/**
 * Takes one sign-in attempt for an account from an address. Refused (unchecked, uncounted)
 * while either waits; otherwise counted against both until it succeeds.
 */
export async function takeSignInAttempt(email: string, address: string, now = new Date()): Promise<AttemptGate> {
  const gate = await takeAttempts(
    [
      { key: accountKey(email), policy: ACCOUNT_POLICY },
      { key: addressKey(address), policy: ADDRESS_POLICY },
    ],
    now,
  );
  return gate.ok ? { ok: true, accountFailures: gate.failures[0]!, addressFailures: gate.failures[1]! } : gate;
}

/** The attempt was the account's own: its failures are forgotten, the address gets its attempt back. */
export async function signInSucceeded(email: string, address: string): Promise<void> {
  await db.signInThrottle.deleteMany({ where: { key: accountKey(email) } });
  await giveBack(addressKey(address), ADDRESS_POLICY);
}

/** Forgets an account's failed sign-ins (a reset by email proved the mailbox: a lock set by guessers ends). */
export async function forgetAccountFailures(email: string): Promise<void> {
  await db.signInThrottle.deleteMany({ where: { key: accountKey(email) } });
}

/** Whether this count of failures is the one that locked the key (its owner is told once). */
export const justLocked = (failures: number, policy: ThrottlePolicy) => failures === policy.lockAt;
