// Next.js calls register() once when the server process starts: background work (the local
// job runner, unless Inngest is configured) runs inside the app process.
export async function register(): Promise<void> {
  // Read directly, not through server/config/env: Next.js replaces this expression at build
  // time, which is what keeps the Node-only import below out of an edge bundle.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startBackgroundWork } = await import('./server/runtime/background');
  await startBackgroundWork();
}
