// Every long-lived connection pool in the process registers a closer here, so shutdown
// (and the test harness, before it drops a file's database) can end them all cleanly.
type Closer = () => Promise<void>;

const globalForClosers = globalThis as unknown as { heraldClosers?: Set<Closer> };
const closers = (globalForClosers.heraldClosers ??= new Set<Closer>());

export function registerCloser(closer: Closer): () => void {
  closers.add(closer);
  return () => closers.delete(closer);
}

export async function closeAllConnections(): Promise<void> {
  const all = [...closers];
  closers.clear();
  await Promise.allSettled(all.map((c) => c()));
}
