// Talking to one Nostr relay over its WebSocket (NIP-01,
// https://github.com/nostr-protocol/nips/blob/master/01.md): the client sends ["EVENT", event]
// and the relay answers ["OK", id, true|false, message]; ["REQ", sub, filter] is answered with
// ["EVENT", sub, event]… then ["EOSE", sub], or ["CLOSED", sub, message] when refused. A
// duplicate ("duplicate: already have this event") means the relay has the event.
//
// Every relay address passes Herald's outbound guard before the socket opens: the URL rules
// (wss only, no loopback, private or reserved address), then every address its host resolves to,
// checked inside the socket's own lookup (createSocketGuard), as the HTTP client does.
import WebSocket, { type ClientOptions } from 'ws';
import type { ClientRequestArgs } from 'node:http';
import { createSocketGuard, OutboundRefusedError, type SocketGuardOptions } from '@/server/outbound';
import type { NostrEvent } from './nostr-event';

/** A relay that says nothing for this long is treated as not answering. */
export const RELAY_TIMEOUT_MS = 10_000;
/** Relay answers are small JSON arrays; an event we ask for is at most a long note. */
const MAX_PAYLOAD = 1024 * 1024;

export interface RelayOptions extends SocketGuardOptions {
  timeoutMs?: number;
  /** Extra trusted CA certificates (PEM), for tests. */
  ca?: string | Buffer;
}

export interface RelaySend {
  relay: string;
  /** The relay has the event (it accepted it now, or already had it). */
  accepted: boolean;
  /** The relay's own words (its OK message or a NOTICE), or what went wrong on the way. */
  message: string;
  /** The relay answered with an OK (accepting or refusing). */
  answered: boolean;
  /** The event may have reached the relay though no answer came back (sent, then silence or a dropped socket). */
  mayHaveArrived: boolean;
}

export type RelayLookup = { relay: string; outcome: 'found'; event: NostrEvent } | { relay: string; outcome: 'absent' | 'unknown'; message: string };

/** The relay's OK answered "duplicate": it has the event already. */
const isDuplicate = (message: string) => /^duplicate:/i.test(message);

/** Opens the socket once the address passed the guard; null with the refusal otherwise. */
function open(relay: string, options: RelayOptions): { socket: WebSocket } | { refused: string } {
  const guard = createSocketGuard(options);
  const checked = guard.check(relay);
  if (!checked.ok) return { refused: checked.reason };
  const socketOptions: ClientOptions & ClientRequestArgs = {
    lookup: guard.lookup,
    handshakeTimeout: options.timeoutMs ?? RELAY_TIMEOUT_MS,
    maxPayload: MAX_PAYLOAD,
    followRedirects: false,
    ...(options.ca ? { ca: options.ca } : {}),
  };
  return { socket: new WebSocket(checked.url, socketOptions) };
}

function reason(error: unknown): string {
  if (error instanceof OutboundRefusedError) return error.reason;
  return error instanceof Error ? error.message : String(error);
}

function parse(data: WebSocket.RawData): unknown[] | null {
  try {
    const value: unknown = JSON.parse(data.toString());
    return Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** Sends one signed event to one relay and waits for its OK, until the deadline. */
export function sendEvent(relay: string, event: NostrEvent, options: RelayOptions = {}): Promise<RelaySend> {
  const timeoutMs = options.timeoutMs ?? RELAY_TIMEOUT_MS;
  const opened = open(relay, options);
  if ('refused' in opened) return Promise.resolve({ relay, accepted: false, message: opened.refused, answered: false, mayHaveArrived: false });
  const { socket } = opened;
  return new Promise((resolve) => {
    let sent = false;
    let notice: string | null = null;
    let settled = false;
    const finish = (answer: Omit<RelaySend, 'relay'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.terminate();
      resolve({ relay, ...answer });
    };
    const timer = setTimeout(
      () => finish({ accepted: false, message: notice ?? `${relay} did not answer within ${timeoutMs} ms`, answered: false, mayHaveArrived: sent }),
      timeoutMs,
    );
    socket.on('open', () => {
      socket.send(JSON.stringify(['EVENT', event]), (error) => {
        if (error) finish({ accepted: false, message: reason(error), answered: false, mayHaveArrived: false });
      });
      sent = true;
    });
    socket.on('message', (data) => {
      const message = parse(data);
      if (!message) return;
      if (message[0] === 'OK' && message[1] === event.id) {
        const words = typeof message[3] === 'string' ? message[3] : '';
        finish({ accepted: message[2] === true || isDuplicate(words), message: words, answered: true, mayHaveArrived: true });
      } else if (message[0] === 'NOTICE' && typeof message[1] === 'string') {
        notice = message[1];
      }
    });
    socket.on('error', (error) => finish({ accepted: false, message: reason(error), answered: false, mayHaveArrived: sent }));
    socket.on('close', () =>
      finish({ accepted: false, message: notice ?? `${relay} closed the connection without answering`, answered: false, mayHaveArrived: sent }),
    );
  });
}

/** Asks one relay for one event by id (["REQ", sub, { ids: [id] }]), until its EOSE or the deadline. */
export function findEvent(relay: string, id: string, options: RelayOptions = {}): Promise<RelayLookup> {
  const timeoutMs = options.timeoutMs ?? RELAY_TIMEOUT_MS;
  const opened = open(relay, options);
  if ('refused' in opened) return Promise.resolve({ relay, outcome: 'unknown', message: opened.refused });
  const { socket } = opened;
  const sub = `herald-${id.slice(0, 16)}`;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: RelayLookup) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.terminate();
      resolve(answer);
    };
    const timer = setTimeout(() => finish({ relay, outcome: 'unknown', message: `${relay} did not answer within ${timeoutMs} ms` }), timeoutMs);
    socket.on('open', () => socket.send(JSON.stringify(['REQ', sub, { ids: [id], limit: 1 }])));
    socket.on('message', (data) => {
      const message = parse(data);
      if (!message || message[1] !== sub) return;
      const event = message[2] as NostrEvent | undefined;
      if (message[0] === 'EVENT' && event?.id === id) finish({ relay, outcome: 'found', event });
      else if (message[0] === 'EOSE') finish({ relay, outcome: 'absent', message: `${relay} has no event ${id}` });
      else if (message[0] === 'CLOSED')
        finish({ relay, outcome: 'unknown', message: typeof message[2] === 'string' ? message[2] : `${relay} closed the request` });
    });
    socket.on('error', (error) => finish({ relay, outcome: 'unknown', message: reason(error) }));
    socket.on('close', () => finish({ relay, outcome: 'unknown', message: `${relay} closed the connection without answering` }));
  });
}
