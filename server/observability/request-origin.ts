// Where the request being handled comes from (address, browser), kept for the length of the
// request so a service recording a security event names it without every signature carrying
// it. Transports set it with the request id (request-id.ts); outside a request it is unknown.
import { AsyncLocalStorage } from 'node:async_hooks';
import { clientAddress } from '@/server/shared/client-address';

export interface RequestOrigin {
  address: string | null;
  userAgent: string | null;
}

const storage = new AsyncLocalStorage<RequestOrigin>();

export function originOf(headers: Headers): RequestOrigin {
  const address = clientAddress(headers);
  return { address: address === 'unknown' ? null : address, userAgent: headers.get('user-agent')?.slice(0, 300) ?? null };
}

export function withRequestOrigin<T>(headers: Headers, fn: () => T): T {
  return storage.run(originOf(headers), fn);
}

export function currentRequestOrigin(): RequestOrigin {
  return storage.getStore() ?? { address: null, userAgent: null };
}
