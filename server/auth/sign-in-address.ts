// Where sign-in works. Herald's session cookie belongs to the address the browser opened;
// when an address is configured (HERALD_BASE_URL / AUTH_URL) and the browser opened another,
// sign-in cookies and every link Herald hands out follow the configured one, so the sign-in
// page says so instead of failing silently. Local addresses of one port are the same place
// (localhost, 127.0.0.1, [::1]): a developer may open any of them.
import { env } from '@/server/config/env';
import { isLoopbackHost } from '@/server/shared/loopback';

function place(url: URL): string {
  const host = isLoopbackHost(url.hostname) ? 'loopback' : url.hostname;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.protocol}//${host}:${port}`;
}

export interface AddressMismatch {
  /** The configured public address, where sign-in works. */
  configured: string;
  /** The address the browser opened. */
  opened: string;
}

/**
 * The mismatch between the configured address and the one opened (from the request's Host and
 * X-Forwarded-Proto), or null when they agree or nothing is configured.
 */
export function signInAddressMismatch(host: string | null, forwardedProto: string | null): AddressMismatch | null {
  const configured = env.configuredBaseUrl();
  if (!configured || !host) return null;
  let want: URL;
  let got: URL;
  try {
    want = new URL(configured);
    got = new URL(`${forwardedProto === 'https' ? 'https' : 'http'}://${host}`);
  } catch {
    return null;
  }
  return place(want) === place(got) ? null : { configured: want.origin, opened: got.origin };
}
