// Delivery tests that run one network's live adapter against the local stand-in instead of
// what the registries give: a connection with provider `live` on that network gets the
// adapter the test made; every other connection what the registry gives. A test file says
//
//   const live = vi.hoisted(() => ({ platform: 'twitter', publisher: null, reconciler: null } as LiveOverrides));
//   vi.mock('@/server/platforms/registry', (original) => import('@/server/platforms/testing/live-overrides').then((m) => m.registryWith(original, live)));
//
// (vi.mock must stay in the test file, where it is hoisted; what it returns is built here).
import type { CommentsClient } from '../comments';
import type { Publisher } from '../publisher';
import type { Reconciler } from '../reconcile';

export interface LiveOverrides {
  /** The network whose `live` connections get the test's adapters. */
  platform: string;
  publisher?: Publisher<never> | null;
  reconciler?: Reconciler | null;
  /** Comments clients by network, for `live` connections. */
  comments?: Map<string, CommentsClient>;
}

type Connection = { provider: string; platform: string };
const isLive = (connection: Connection, live: LiveOverrides) => connection.provider === 'live' && connection.platform === live.platform;

/** The registry module with `publisherFor` answering the test's publisher for a live connection. */
export async function registryWith(importOriginal: () => Promise<unknown>, live: LiveOverrides) {
  const original = (await importOriginal()) as typeof import('../registry');
  return {
    ...original,
    publisherFor: ((connection) =>
      isLive(connection, live) && live.publisher ? live.publisher : original.publisherFor(connection)) as typeof original.publisherFor,
  };
}

/** The reconcilers module with `reconcilerFor` answering the test's reconciler for a live connection. */
export async function reconcilersWith(importOriginal: () => Promise<unknown>, live: LiveOverrides) {
  const original = (await importOriginal()) as typeof import('../reconcilers');
  return {
    ...original,
    reconcilerFor: ((connection) =>
      isLive(connection, live) && live.reconciler ? live.reconciler : original.reconcilerFor(connection)) as typeof original.reconcilerFor,
  };
}

/** The comments clients module answering the test's client for a live connection of any network it names. */
export async function commentsClientsWith(importOriginal: () => Promise<unknown>, live: LiveOverrides) {
  const original = (await importOriginal()) as typeof import('../comments-clients');
  return {
    ...original,
    commentsClientFor: ((connection) =>
      (connection.provider === 'live' && live.comments?.get(connection.platform)) ||
      original.commentsClientFor(connection)) as typeof original.commentsClientFor,
  };
}
