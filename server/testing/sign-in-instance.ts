// A second Herald instance for tests, in a process of its own: it signs in through the same
// service as the app (server/auth/sign-in.ts) against the database in DATABASE_URL, one JSON
// request a line on stdin, one JSON answer a line on stdout. Tests run two of these to show
// the throttle counts the attempts every instance sees.
import { createInterface } from 'node:readline';
import { signInWithPassword } from '@/server/auth/sign-in';
import { closeAllConnections } from '@/server/db/connections';

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const { email, password, now, address } = JSON.parse(line) as { email: string; password: string; now: string; address: string };
  const outcome = await signInWithPassword({ email, password }, { address, userAgent: 'sign-in-instance' }, new Date(now));
  process.stdout.write(
    `${JSON.stringify({ kind: outcome.kind, ...(outcome.kind === 'refused' ? { retryAt: outcome.retryAt?.toISOString() ?? null, locked: outcome.locked } : {}), pid: process.pid })}\n`,
  );
}
await closeAllConnections();
