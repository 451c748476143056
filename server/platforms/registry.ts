// Which publisher serves a connection: the in-process sandbox for provider `sandbox`, the
// platform's live adapter otherwise.
import type { Platform } from '@/server/shared/platforms';
import type { Publisher, PublishableConnection } from './publisher';
import { sandboxPublisher } from './sandbox/sandbox-publisher';
import { liveAdapters } from './live-adapters';

export function publisherFor<P extends Platform>(connection: Pick<PublishableConnection, 'provider'> & { platform: P }): Publisher<P> {
  if (connection.provider === 'sandbox') return sandboxPublisher;
  return liveAdapters[connection.platform];
}
