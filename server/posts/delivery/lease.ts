// Delivery leases: which process instance is delivering a post, and proof that it is alive.
//
// A post in `publishing` carries its owner (this process's INSTANCE_ID) and a lease end. While
// platform calls are in flight the owner renews the lease of every post it holds in one
// statement every third of the lease. When the owner dies (kill -9, a lost machine) renewals
// stop and the lease lapses: any instance may then take the delivery over (deliver-post.ts)
// and the catch-up sweep wakes up when the earliest lease ends (scheduled-delivery.ts). A
// post whose lease is live is never touched by anyone else, however long its calls take.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { db } from '@/server/db/client';
import { env } from '@/server/config/env';
import { log } from '@/server/observability/log';

/** This process, as it appears in `Post.deliveryOwner`: readable in psql, unique per start. */
export const INSTANCE_ID = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;

/** The lease length in seconds (DELIVERY_LEASE_SECONDS, default 30). */
export function leaseSeconds(): number {
  return env.deliveryLeaseSeconds();
}

/** How many holders this process has per post (a post is normally held once). */
const held = new Map<string, number>();
let timer: NodeJS.Timeout | undefined;

async function renew(): Promise<void> {
  const ids = [...held.keys()];
  if (!ids.length) return;
  try {
    await db.$executeRaw`
      UPDATE "Post" SET "deliveryLeaseUntil" = now() + make_interval(secs => ${leaseSeconds()})
      WHERE "id" = ANY(${ids}::uuid[]) AND "deliveryOwner" = ${INSTANCE_ID} AND "status" = 'publishing'`;
  } catch (err) {
    // The next tick tries again; a lease that lapses meanwhile is taken over safely.
    log.warn('publishing', 'could not renew delivery leases', err);
  }
}

/**
 * Keeps the lease of `postId` alive until the returned release is called. Call it right
 * after claiming the post and release in `finally`.
 */
export function holdLease(postId: string): () => void {
  held.set(postId, (held.get(postId) ?? 0) + 1);
  if (!timer) {
    timer = setInterval(() => void renew(), Math.max(1000, (leaseSeconds() * 1000) / 3));
    timer.unref();
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const n = (held.get(postId) ?? 1) - 1;
    if (n > 0) held.set(postId, n);
    else held.delete(postId);
    if (!held.size && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** Posts this process is delivering right now (tests and diagnostics). */
export function heldLeases(): string[] {
  return [...held.keys()];
}
