/**
 * What this process holds: one handle per data directory (concurrent callers
 * share it) and the servers it has not let go of yet, which the exit hooks
 * and stopOwnedEmbeddedPostgres() act on.
 */
import type { EmbeddedPostgres } from './handle';

// One handle per data directory per process: concurrent callers share it.
export const handles = new Map<string, Promise<EmbeddedPostgres>>();

export interface Held {
  dataDir: string;
  pid: number;
}

// Servers this process holds (started, taken over or joined) and has not let go of.
export const held = new Set<Held>();

/** Stops (or lets go of) every embedded server this process holds. */
export async function stopOwnedEmbeddedPostgres(): Promise<void> {
  const servers = await Promise.allSettled([...handles.values()]);
  await Promise.all(servers.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)));
}
