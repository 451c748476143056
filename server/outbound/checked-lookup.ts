// The DNS lookup handed to the socket. The socket connects to exactly the addresses this
// function returns, so checking them here (rather than resolving once to check and again to
// connect) leaves no window for DNS rebinding.
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isAllowedAddress, type AllowList } from './address-policy';
import { OutboundRefusedError } from './errors';

/** Resolves a host name to all of its addresses; tests inject one to simulate any DNS answer. */
export type Resolver = (hostname: string, family: 0 | 4 | 6) => Promise<dns.LookupAddress[]>;

export const systemResolver: Resolver = (hostname, family) => dns.promises.lookup(hostname, { all: true, family });

type LookupAllCallback = (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void;
type LookupOneCallback = (err: NodeJS.ErrnoException | null, address: string, family: number) => void;

/**
 * A socket `lookup` that resolves through `resolve` and fails the connection with an
 * OutboundRefusedError when any answer is not allowed. Refusing when any one answer is private
 * (instead of dropping it) stops a name that mixes public and private answers from being used
 * to reach the private one.
 */
export function createCheckedLookup(resolve: Resolver, getAllowList: () => AllowList): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : 0;
    const fail = (err: NodeJS.ErrnoException) => (callback as LookupOneCallback)(err, '', 0);

    resolve(hostname, family).then(
      (addresses) => {
        if (addresses.length === 0) {
          return fail(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }));
        }
        const allow = getAllowList();
        const refused = addresses.find(({ address }) => !isAllowedAddress(hostname, address, allow));
        if (refused) {
          return fail(
            new OutboundRefusedError(
              'private_address',
              `${hostname} resolves to ${refused.address}, which is private or reserved, not a public internet address.`,
            ),
          );
        }
        if (options.all) return (callback as unknown as LookupAllCallback)(null, addresses);
        return (callback as LookupOneCallback)(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: NodeJS.ErrnoException) => fail(err),
    );
  };
}
