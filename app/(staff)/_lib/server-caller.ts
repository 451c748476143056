// Server components read through the same procedures as the browser: a caller for the
// signed-in member, acting in the workspace the switcher picked (a cookie on this side, the
// selection header on the wire).
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { currentSessionToken, currentStaffUserId } from '@/server/auth/staff-auth';
import { createCaller } from '@/server/root';
import { HEADERS } from '@/server/shared/headers';
import { createRequestContext } from '@/server/trpc/context';
import { WORKSPACE_COOKIE } from './workspace-cookie';

export async function staffCaller() {
  const userId = await currentStaffUserId();
  if (!userId) redirect('/signin');
  const selected = (await cookies()).get(WORKSPACE_COOKIE)?.value;
  const headers = new Headers(selected ? { [HEADERS.workspace]: selected } : {});
  return createCaller(createRequestContext({ transport: 'trpc', headers, staffUserId: userId, sessionToken: await currentSessionToken() }));
}

/** A read for the first paint; null when it failed (the client component shows the error state and retries). */
export async function prefetch<T>(read: () => Promise<{ data: T }>): Promise<T | null> {
  try {
    return (await read()).data;
  } catch {
    return null;
  }
}
