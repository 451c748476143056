// Nostr live adapter: one kind 1 text note, signed with the account's key (kept sealed as the
// connection's token) and sent to every relay chosen at connect (platformData.relays).
//
// Sources:
//   https://github.com/nostr-protocol/nips/blob/master/01.md (the event, its id and signature,
//     ["EVENT", event] → ["OK", id, true|false, message])
//   https://github.com/nostr-protocol/nips/blob/master/92.md (imeta: "url <url>" and at least
//     one other field, one tag per URL in the content)
//   https://github.com/nostr-protocol/nips/blob/master/19.md (nevent, for the permalink)
//
// The note is published when at least one relay has it (it accepted it, or answered
// "duplicate:"); the permalink is a public viewer's page for its nevent, naming the relays that
// took it. When none took it the relays' own words are the error; when a relay may have taken
// it without answering, the error says the answer was lost, so delivery asks (nostr-reconcile.ts).
// Before any relay is contacted the attempt records its event's id and created_at (checkpoint):
// the reconciler asks the relays for exactly that event.
import { log } from '@/server/observability/log';
import { PlatformError, TokenExpiredError, type Publisher, type PublishableConnection, type PublishRequest, type PublishResult } from '../publisher';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { mediaItems } from '../media';
import { encodeNevent } from './nip19';
import { isSecretKey, publicKeyOf, signEvent, type NostrEvent, type UnsignedEvent } from './nostr-event';
import { sendEvent, type RelayOptions } from './nostr-relay';

const { media } = PLATFORM_CATALOGUE.nostr;

/** The public viewer a note's permalink opens. */
export const NOSTR_VIEWER = 'https://njump.me';
/** Relay hints a permalink carries at most. */
const PERMALINK_RELAYS = 2;

export interface NostrOptions extends RelayOptions {
  /** The clock the event's created_at is read from. */
  now?: () => Date;
}

/** The relays the connection posts to, as the connect flow stored them (space-separated). */
export function nostrRelays(connection: PublishableConnection): string[] {
  const stored = connection.platformData?.relays;
  const relays = typeof stored === 'string' ? stored.split(/\s+/).filter(Boolean) : [];
  if (relays.length === 0) throw new TokenExpiredError('No Nostr relays are stored for this account; reconnect it to publish.');
  return relays;
}

/** The account's secret key, checked against its public key (the connection's externalId). */
export function nostrSecretKey(connection: PublishableConnection): string {
  const key = connection.accessToken ?? '';
  if (!isSecretKey(key)) throw new TokenExpiredError('The stored Nostr key is not a valid secret key; connect the account again.');
  if (publicKeyOf(key) !== connection.externalId) {
    throw new TokenExpiredError('The stored Nostr key does not belong to this account’s public key; connect the account again.');
  }
  return key;
}

/** The note a post becomes: its text, then each image's link on a line of its own (imeta tags with an alt text). */
export function noteOf(request: PublishRequest<'nostr'>, createdAt: Date): UnsignedEvent {
  const items = mediaItems(request);
  if (items.some((i) => i.kind === 'video')) throw new PlatformError('Herald posts images to Nostr, not videos');
  if (items.length > media.maxImages) throw new PlatformError(`Herald posts at most ${media.maxImages} images to Nostr`);
  const text = request.content.trim();
  if (!text && items.length === 0) throw new PlatformError('A Nostr note needs text or an image');
  const links = items.map((i) => i.url).join('\n');
  const alt = request.settings.altText?.trim();
  return {
    created_at: Math.floor(createdAt.getTime() / 1000),
    kind: 1,
    tags: alt ? items.map((i) => ['imeta', `url ${i.url}`, `alt ${alt}`]) : [],
    content: [text, links].filter(Boolean).join('\n\n'),
  };
}

/** The note's postedId (its id) and its page on the public viewer. */
export function publishedNote(event: Pick<NostrEvent, 'id' | 'pubkey'>, relays: readonly string[]): PublishResult {
  return {
    postedId: event.id,
    permalink: `${NOSTR_VIEWER}/${encodeNevent({ id: event.id, relays: relays.slice(0, PERMALINK_RELAYS), author: event.pubkey, kind: 1 })}`,
  };
}

export function createNostrPublisher(options: NostrOptions = {}): Publisher<'nostr'> {
  return {
    async publish(connection, request, { checkpoint }) {
      const secretKey = nostrSecretKey(connection);
      const relays = nostrRelays(connection);
      const event = signEvent(secretKey, noteOf(request, options.now?.() ?? new Date()));
      await checkpoint?.({ eventId: event.id, createdAt: String(event.created_at) });

      const answers = await Promise.all(relays.map((relay) => sendEvent(relay, event, options)));
      const took = answers.filter((a) => a.accepted).map((a) => a.relay);
      if (took.length > 0) {
        const refused = answers.filter((a) => !a.accepted);
        if (refused.length)
          log.info('nostr', `note ${event.id} taken by ${took.join(', ')}; not by ${refused.map((a) => `${a.relay} (${a.message})`).join(', ')}`);
        return publishedNote(event, took);
      }
      const words = answers.map((a) => `${a.relay}: ${a.message}`).join('; ');
      // A relay that got the note and fell silent may have it: the answer was lost, not refused.
      const lost = answers.some((a) => a.mayHaveArrived && !a.answered);
      throw new PlatformError(words, lost ? { status: 504 } : {});
    },
  };
}
