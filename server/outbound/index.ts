// The outbound HTTP guard: the only way Herald calls URLs it does not control.
export { checkOutboundUrl, isPublicAddress, type OutboundUrlCheck } from './address-policy';
export { OutboundFailedError, OutboundRefusedError, type OutboundFailureCode, type OutboundRefusalCode } from './errors';
export {
  checkOutboundDestination,
  createOutboundClient,
  guardedFetch,
  guardedStream,
  type OutboundClient,
  type OutboundClientOptions,
  type OutboundRequestInit,
  type OutboundResponse,
  type OutboundStreamResponse,
} from './outbound-client';
export type { Resolver } from './checked-lookup';
export { createSocketGuard, type SocketGuard, type SocketGuardOptions } from './socket-guard';
