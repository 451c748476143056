// Nostr against the NIPs, with a local relay (a WebSocket server over TLS with its own
// certificate) speaking NIP-01's messages:
//   https://github.com/nostr-protocol/nips/blob/master/01.md (event id, serialization, EVENT/OK,
//     REQ/EVENT/EOSE/CLOSED, "duplicate:")
//   https://github.com/nostr-protocol/nips/blob/master/19.md (bech32 entities and the test vectors)
//   https://github.com/nostr-protocol/nips/blob/master/92.md (imeta)
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { createSelfSignedCert } from '@/server/testing/self-signed-cert';
import { answerMayBeLost, TokenExpiredError, type PublishRequest } from '../publisher';
import { failure, liveConnection, MemoryTokenStore } from '../testing/adapter-tests';
import { bech32Decode, bech32Encode, decodeBare, decodeTlv, encodeBare, encodeNevent } from './nip19';
import { eventId, publicKeyOf, serializeEvent, signEvent, verifyEvent, type NostrEvent } from './nostr-event';
import { createNostrPublisher, NOSTR_VIEWER, type NostrOptions } from './nostr-publisher';
import { createNostrReconciler } from './nostr-reconcile';

// NIP-19's example keys.
const NSEC = 'nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5';
const SECRET = '67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa';
const PUBKEY = publicKeyOf(SECRET);

type Behaviour = (message: unknown[], socket: WebSocket, relay: FakeRelay) => void;

interface FakeRelay {
  url: string;
  received: unknown[][];
  connections: number;
  stored: Map<string, NostrEvent>;
  behave: Behaviour;
}

const cert = createSelfSignedCert('herald-fake-relay', ['IP:127.0.0.1']);
cert.remove();
const servers: https.Server[] = [];

async function startRelay(): Promise<FakeRelay> {
  const server = https.createServer({ key: cert.key, cert: cert.cert });
  const wss = new WebSocketServer({ server });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const relay: FakeRelay = {
    url: `wss://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: [],
    connections: 0,
    stored: new Map(),
    behave: accepting,
  };
  wss.on('connection', (socket) => {
    relay.connections += 1;
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as unknown[];
      relay.received.push(message);
      relay.behave(message, socket, relay);
    });
  });
  return relay;
}

/** A relay as NIP-01 describes one: stores valid events, answers a duplicate, serves REQ by ids. */
const accepting: Behaviour = (message, socket, relay) => {
  if (message[0] === 'EVENT') {
    const event = message[1] as NostrEvent;
    if (!verifyEvent(event)) return socket.send(JSON.stringify(['OK', event.id, false, 'invalid: bad signature']));
    if (relay.stored.has(event.id)) return socket.send(JSON.stringify(['OK', event.id, false, 'duplicate: already have this event']));
    relay.stored.set(event.id, event);
    socket.send(JSON.stringify(['OK', event.id, true, '']));
  } else if (message[0] === 'REQ') {
    const [, sub, filter] = message as [string, string, { ids: string[] }];
    for (const id of filter.ids) {
      const event = relay.stored.get(id);
      if (event) socket.send(JSON.stringify(['EVENT', sub, event]));
    }
    socket.send(JSON.stringify(['EOSE', sub]));
  }
};

let relayA: FakeRelay;
let relayB: FakeRelay;
beforeAll(async () => {
  relayA = await startRelay();
  relayB = await startRelay();
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
beforeEach(() => {
  for (const relay of [relayA, relayB]) {
    relay.received = [];
    relay.connections = 0;
    relay.stored = new Map();
    relay.behave = accepting;
  }
});

const trusting: NostrOptions = { ca: cert.cert, allowHosts: ['127.0.0.1'], timeoutMs: 2000 };
const at = new Date('2026-11-27T09:30:00Z');
const publisher = (extra: Partial<NostrOptions> = {}) => createNostrPublisher({ ...trusting, now: () => at, ...extra });
const connection = (relays: string[], key = SECRET) =>
  liveConnection('nostr', { externalId: PUBKEY, accountName: encodeBare('npub', PUBKEY), accessToken: key, platformData: { relays: relays.join(' ') } });
const note = (extra: Partial<PublishRequest<'nostr'>> = {}): PublishRequest<'nostr'> => ({
  content: 'Our winter blend is back.\n"Roasted" on Tuesday.',
  mediaUrls: [],
  settings: {},
  ...extra,
});
const publish = (
  p: ReturnType<typeof publisher>,
  c: ReturnType<typeof connection>,
  request: PublishRequest<'nostr'>,
  checkpoints: Record<string, string>[] = [],
) => p.publish(c, request, { tokens: new MemoryTokenStore(), checkpoint: async (values) => void checkpoints.push(values) });

describe('NIP-19 and bech32', () => {
  it('decodes and encodes NIP-19’s examples', () => {
    expect(decodeBare('npub', 'npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg')).toBe(
      '7e7e9c42a91bfef19fa929e5fda1b72e0ebc1a4c1141673e2794234d86addf4e',
    );
    expect(encodeBare('npub', '7e7e9c42a91bfef19fa929e5fda1b72e0ebc1a4c1141673e2794234d86addf4e')).toBe(
      'npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg',
    );
    expect(encodeBare('npub', '3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d')).toBe(
      'npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6',
    );
    expect(decodeBare('nsec', NSEC)).toBe(SECRET);
    expect(encodeBare('nsec', SECRET)).toBe(NSEC);
    const profile = decodeTlv(
      'nprofile1qqsrhuxx8l9ex335q7he0f09aej04zpazpl0ne2cgukyawd24mayt8gpp4mhxue69uhhytnc9e3k7mgpz4mhxue69uhkg6nzv9ejuumpv34kytnrdaksjlyr9p',
    );
    expect(profile.hrp).toBe('nprofile');
    expect(profile.items.map((i) => [i.type, i.type === 0 ? Buffer.from(i.value).toString('hex') : Buffer.from(i.value).toString('ascii')])).toEqual([
      [0, '3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d'],
      [1, 'wss://r.x.com'],
      [1, 'wss://djbas.sadkb.com'],
    ]);
  });

  it('writes an nevent with the id, relays, author and kind, and refuses a broken string', () => {
    const id = 'b1a649ebe8b435ec71d3784793f3bbf4b93e64e17568a741aecd4c7ddeafce30';
    const { hrp, items } = decodeTlv(encodeNevent({ id, relays: ['wss://nos.lol'], author: PUBKEY, kind: 1 }));
    expect(hrp).toBe('nevent');
    expect(items.map((i) => i.type)).toEqual([0, 1, 2, 3]);
    expect(Buffer.from(items[0]!.value).toString('hex')).toBe(id);
    expect(Buffer.from(items[1]!.value).toString('ascii')).toBe('wss://nos.lol');
    expect(Buffer.from(items[2]!.value).toString('hex')).toBe(PUBKEY);
    expect(Buffer.from(items[3]!.value).readUInt32BE()).toBe(1);
    // BIP-173: a changed character breaks the checksum; mixed case is refused.
    expect(() => bech32Decode(NSEC.replace('vl029', 'vl028'))).toThrow('checksum');
    expect(() => bech32Decode(`NSEC${NSEC.slice(4)}`)).toThrow('lower case or all upper case');
    expect(bech32Decode(NSEC.toUpperCase()).hrp).toBe('nsec');
    expect(() => decodeBare('npub', NSEC)).toThrow('Expected an npub, not an nsec');
    expect(bech32Encode('a', new Uint8Array())).toBe('a12uel5l'); // BIP-173's first valid test vector
  });
});

describe('NIP-01 events', () => {
  it('hashes the serialization NIP-01 prescribes: seven escapes, every other character verbatim', () => {
    const event = { created_at: 1795772100, kind: 1, tags: [['t', 'coffee']], content: 'a\nb"c\\d\re\tf\bg\fh\u0001é😻' };
    const serialized = serializeEvent(PUBKEY, event);
    expect(serialized).toBe(`[0,"${PUBKEY}",1795772100,1,[["t","coffee"]],"a\\nb\\"c\\\\d\\re\\tf\\bg\\fh\u0001é😻"]`);
    expect(eventId(PUBKEY, event)).toBe(createHash('sha256').update(serialized, 'utf8').digest('hex'));
  });

  it('signs with BIP-340 so the signature verifies, and not once the content changes', () => {
    const signed = signEvent(SECRET, { created_at: 1795772100, kind: 1, tags: [], content: 'hello' });
    expect(signed.pubkey).toBe(PUBKEY);
    expect(signed.sig).toMatch(/^[0-9a-f]{128}$/);
    expect(verifyEvent(signed)).toBe(true);
    expect(verifyEvent({ ...signed, content: 'hellp' })).toBe(false);
  });
});

describe('Nostr publishing', () => {
  it('signs a kind 1 note with the images linked and imeta tags, and sends it to every relay', async () => {
    const checkpoints: Record<string, string>[] = [];
    const images = ['https://cdn.herald.example/m/beans.jpg', 'https://cdn.herald.example/m/cup.jpg'];
    const result = await publish(
      publisher(),
      connection([relayA.url, relayB.url]),
      note({ mediaUrls: images, mediaKinds: ['image', 'image'], settings: { altText: 'Beans and a cup' } }),
      checkpoints,
    );

    const [[verb, event]] = relayA.received as [[string, NostrEvent]];
    expect(verb).toBe('EVENT');
    expect(relayB.received).toEqual(relayA.received);
    expect(verifyEvent(event)).toBe(true);
    expect(event).toMatchObject({
      pubkey: PUBKEY,
      kind: 1,
      created_at: at.getTime() / 1000,
      content: `Our winter blend is back.\n"Roasted" on Tuesday.\n\n${images.join('\n')}`,
      tags: images.map((url) => ['imeta', `url ${url}`, 'alt Beans and a cup']),
    });
    expect(checkpoints).toEqual([{ eventId: event.id, createdAt: String(event.created_at) }]);
    expect(result).toEqual({
      postedId: event.id,
      permalink: `${NOSTR_VIEWER}/${encodeNevent({ id: event.id, relays: [relayA.url, relayB.url], author: PUBKEY, kind: 1 })}`,
    });
  });

  it('is published when one relay takes the note; the permalink names only the relays that did', async () => {
    relayA.behave = (message, socket) => socket.send(JSON.stringify(['OK', (message[1] as NostrEvent).id, false, 'blocked: you are banned from posting here']));
    const result = await publish(publisher(), connection([relayA.url, relayB.url]), note());
    expect(result.permalink).toBe(`${NOSTR_VIEWER}/${encodeNevent({ id: result.postedId, relays: [relayB.url], author: PUBKEY, kind: 1 })}`);
    expect(relayB.stored.has(result.postedId)).toBe(true);
  });

  it('fails with the relays’ own words when none takes the note', async () => {
    relayA.behave = (message, socket) => socket.send(JSON.stringify(['OK', (message[1] as NostrEvent).id, false, 'blocked: you are banned from posting here']));
    relayB.behave = (message, socket) => socket.send(JSON.stringify(['OK', (message[1] as NostrEvent).id, false, 'rate-limited: slow down there chief']));
    const error = await failure(publish(publisher(), connection([relayA.url, relayB.url]), note()));
    expect(error.message).toBe(`${relayA.url}: blocked: you are banned from posting here; ${relayB.url}: rate-limited: slow down there chief`);
    expect(answerMayBeLost(error)).toBe(false);
  });

  it('reports a lost answer when a relay got the note and fell silent, so delivery asks', async () => {
    relayA.behave = () => {};
    const error = await failure(publish(publisher({ timeoutMs: 300 }), connection([relayA.url]), note()));
    expect(error.message).toBe(`${relayA.url}: ${relayA.url} did not answer within 300 ms`);
    expect(answerMayBeLost(error)).toBe(true);
    expect(relayA.received).toHaveLength(1);
  });

  it('reports a bad or foreign key as a connection to reconnect, before any relay is contacted', async () => {
    const bad = await failure(publish(publisher(), connection([relayA.url], 'not-a-key'), note()));
    expect(bad).toBeInstanceOf(TokenExpiredError);
    expect(bad.message).toBe('The stored Nostr key is not a valid secret key; connect the account again.');
    const foreign = await failure(publish(publisher(), connection([relayA.url], 'ab'.repeat(32)), note()));
    expect(foreign).toBeInstanceOf(TokenExpiredError);
    expect(foreign.message).toMatch(/does not belong to this account/);
    expect(relayA.connections).toBe(0);
  });

  it('sends the same event again for the same note and time, and takes the relay’s duplicate answer as accepted', async () => {
    const first = await publish(publisher(), connection([relayA.url]), note());
    const again = await publish(publisher(), connection([relayA.url]), note());
    expect(again.postedId).toBe(first.postedId);
    expect(relayA.stored.size).toBe(1);
    expect((relayA.received[1]![1] as NostrEvent).id).toBe(first.postedId);
  });

  it('opens no socket to an address the outbound guard refuses', async () => {
    const guarded = publisher({ allowHosts: [] });
    const loopback = await failure(publish(guarded, connection([relayA.url]), note()));
    expect(loopback.message).toBe(`${relayA.url}: The address 127.0.0.1 is private or reserved, not a public internet address.`);
    const plain = await failure(publish(guarded, connection(['ws://relay.example']), note()));
    expect(plain.message).toBe('ws://relay.example: Only wss:// addresses are allowed.');
    // A name that resolves to a private address is refused inside the socket's lookup.
    const rebinding = publisher({ allowHosts: [], resolve: async () => [{ address: '10.0.0.7', family: 4 }] });
    const named = await failure(publish(rebinding, connection(['wss://relay.example']), note()));
    expect(named.message).toBe('wss://relay.example: relay.example resolves to 10.0.0.7, which is private or reserved, not a public internet address.');
    expect(answerMayBeLost(named)).toBe(false);
    expect(relayA.connections).toBe(0);
  });

  it('refuses a video before contacting any relay', async () => {
    const error = await failure(
      publish(publisher(), connection([relayA.url]), note({ mediaUrls: ['https://cdn.herald.example/v.mp4'], mediaKinds: ['video'] })),
    );
    expect(error.message).toBe('Herald posts images to Nostr, not videos');
    expect(relayA.connections).toBe(0);
  });
});

describe('Nostr reconcile', () => {
  const intent = (checkpoint?: Record<string, string>) => ({
    idempotencyKey: 'k',
    content: 'x',
    mediaUrls: [],
    settings: {},
    startedAt: at,
    ...(checkpoint ? { checkpoint } : {}),
  });
  const ctx = () => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T10:00:00Z') });
  const reconciler = () => createNostrReconciler(trusting);

  it('finds the recorded event on the relays that have it, asking by id', async () => {
    const checkpoints: Record<string, string>[] = [];
    relayA.behave = (message, socket, relay) => {
      // Takes the note without answering, then serves it when asked.
      if (message[0] === 'EVENT') relay.stored.set((message[1] as NostrEvent).id, message[1] as NostrEvent);
      else accepting(message, socket, relay);
    };
    await failure(publish(publisher({ timeoutMs: 300 }), connection([relayA.url]), note(), checkpoints));
    const id = checkpoints[0]!.eventId!;
    const settled = await reconciler().reconcile(connection([relayA.url, relayB.url]), intent(checkpoints[0]), ctx());
    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: id, permalink: `${NOSTR_VIEWER}/${encodeNevent({ id, relays: [relayA.url], author: PUBKEY, kind: 1 })}` },
      evidence: `The note ${id} signed by the attempt is on ${relayA.url}`,
    });
    expect(relayB.received.at(-1)).toEqual(['REQ', expect.any(String), { ids: [id], limit: 1 }]);
  });

  it('is absent when every relay answers without it, and when the attempt signed nothing', async () => {
    const id = 'ab'.repeat(32);
    expect((await reconciler().reconcile(connection([relayA.url, relayB.url]), intent({ eventId: id, createdAt: '1' }), ctx())).outcome).toBe('absent');
    expect((await reconciler().reconcile(connection([relayA.url]), intent(), ctx())).outcome).toBe('absent');
  });

  it('cannot tell when a relay refuses to be asked', async () => {
    relayB.behave = (message, socket) => socket.send(JSON.stringify(['CLOSED', message[1], 'error: could not connect to the database']));
    const settled = await reconciler().reconcile(connection([relayA.url, relayB.url]), intent({ eventId: 'ab'.repeat(32), createdAt: '1' }), ctx());
    expect(settled).toEqual({
      outcome: 'unknown',
      evidence: `No relay asked has the note ${'ab'.repeat(32)}, but ${relayB.url} could not be asked (error: could not connect to the database)`,
    });
  });
});
