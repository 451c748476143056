// Which destinations Herald may call. The rules themselves are pure and live in url-rules.ts
// (the staff app runs them as a member types); this module binds them to the deployment's
// OUTBOUND_ALLOW_HOSTS. The same rules run at registration time (checkOutboundUrl) and inside
// the socket's DNS lookup (isAllowedAddress), so a URL accepted when saved is judged by the
// same code when it is finally connected to.
import { env } from '@/server/config/env';
import { allowListOf, checkUrlShape, type AllowList, type OutboundUrlCheck } from './url-rules';

export { isAllowedAddress, isAllowedHostName, isPublicAddress, normalizeHost, type AllowList, type OutboundUrlCheck } from './url-rules';

/** Turns `OUTBOUND_ALLOW_HOSTS` (or an explicit list) into the two lookup sets. */
export function parseAllowList(entries: readonly string[] = env.outboundAllowHosts()): AllowList {
  return allowListOf(entries);
}

/** Registration-time check of a URL, before any DNS, against the deployment's allow list. */
export function checkOutboundUrl(input: string | URL, allow: AllowList = parseAllowList()): OutboundUrlCheck {
  return checkUrlShape(input, allow);
}
