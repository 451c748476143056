// Nostr reconcile: settles a publish that was cut off by asking each chosen relay for the exact
// event the attempt signed (its id, recorded before any relay was contacted):
// ["REQ", sub, {"ids": [id]}] → ["EVENT", sub, event] and ["EOSE", sub]
// (https://github.com/nostr-protocol/nips/blob/master/01.md). Read only. An event id is the hash
// of the event, and the event a relay returns is checked (id and signature) before it counts.
import { type Reconciler } from '../reconcile';
import { verifyEvent } from './nostr-event';
import { findEvent } from './nostr-relay';
import { nostrRelays, publishedNote, type NostrOptions } from './nostr-publisher';

export function createNostrReconciler(options: NostrOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent) {
      const id = intent.checkpoint?.eventId;
      // The id is recorded before any relay is contacted: an attempt without one sent nothing.
      if (!id) return { outcome: 'absent', evidence: 'The attempt recorded no signed note: it ended before any relay was contacted' };
      let relays: string[];
      try {
        relays = nostrRelays(connection);
      } catch (error) {
        return { outcome: 'unknown', evidence: `Nostr could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
      const answers = await Promise.all(relays.map((relay) => findEvent(relay, id, options)));
      const holding = answers.filter((a) => a.outcome === 'found' && verifyEvent(a.event) && a.event.pubkey === connection.externalId);
      if (holding.length > 0) {
        return {
          outcome: 'found',
          result: publishedNote(
            { id, pubkey: connection.externalId },
            holding.map((a) => a.relay),
          ),
          evidence: `The note ${id} signed by the attempt is on ${holding.map((a) => a.relay).join(', ')}`,
        };
      }
      const unknown = answers.filter((a) => a.outcome !== 'absent');
      if (unknown.length === 0) return { outcome: 'absent', evidence: `None of ${relays.join(', ')} has the note ${id} signed by the attempt` };
      return {
        outcome: 'unknown',
        evidence: `No relay asked has the note ${id}, but ${unknown.map((a) => `${a.relay} could not be asked (${'message' in a ? a.message : 'its event did not verify'})`).join('; ')}`,
      };
    },
  };
}
