// Next.js calls register() once when the server process starts: background work (the local
// job runner, unless Inngest is configured) runs inside the app process.
export async function register(): Promise<void> {
  // Read directly, not through server/config/env: Next.js replaces this expression at build
  // time, which is what keeps the Node-only import below out of an edge bundle.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // Herald's own server (server/runtime/http-server.mjs) answers API requests with the handlers
  // of this module graph — the one the route files use — so it finds them here.
  const { registerFastPath } = await import('./server/runtime/fast-path');
  registerFastPath();
  const { startBackgroundWork } = await import('./server/runtime/background');
  await startBackgroundWork();
}
