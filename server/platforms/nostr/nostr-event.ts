// Nostr events (NIP-01, https://github.com/nostr-protocol/nips/blob/master/01.md): the id is the
// sha256 of [0, pubkey, created_at, kind, tags, content] serialized as UTF-8 JSON without
// whitespace, the strings escaping exactly \n \" \\ \r \t \b \f and nothing else; the signature
// is BIP-340 Schnorr over that id, with the x-only public key (@noble/curves, audited).
import { createHash } from 'node:crypto';
import { schnorr } from '@noble/curves/secp256k1';

export interface UnsignedEvent {
  created_at: number;
  kind: number;
  tags: string[][];
  content: string;
}

export interface NostrEvent extends UnsignedEvent {
  id: string;
  pubkey: string;
  sig: string;
}

const ESCAPES: Record<string, string> = { '\n': '\\n', '"': '\\"', '\\': '\\\\', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** A JSON string as NIP-01 writes it: the seven escapes, every other character verbatim. */
function jsonString(value: string): string {
  return `"${value.replace(/[\n"\\\r\t\b\f]/g, (c) => ESCAPES[c]!)}"`;
}

/** The text NIP-01 hashes into the event id. */
export function serializeEvent(pubkey: string, event: UnsignedEvent): string {
  const tags = `[${event.tags.map((tag) => `[${tag.map(jsonString).join(',')}]`).join(',')}]`;
  return `[0,${jsonString(pubkey)},${event.created_at},${event.kind},${tags},${jsonString(event.content)}]`;
}

export function eventId(pubkey: string, event: UnsignedEvent): string {
  return createHash('sha256').update(serializeEvent(pubkey, event), 'utf8').digest('hex');
}

/** The x-only public key (hex) of a secret key (hex). */
export function publicKeyOf(secretKey: string): string {
  return Buffer.from(schnorr.getPublicKey(Buffer.from(secretKey, 'hex'))).toString('hex');
}

/** A fresh secret key (hex) from the system's random source. */
export function newSecretKey(): string {
  return Buffer.from(schnorr.utils.randomSecretKey()).toString('hex');
}

/** Whether `secretKey` is 32 bytes of hex that secp256k1 accepts as a secret key. */
export function isSecretKey(secretKey: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(secretKey)) return false;
  try {
    publicKeyOf(secretKey);
    return true;
  } catch {
    return false;
  }
}

export function signEvent(secretKey: string, event: UnsignedEvent): NostrEvent {
  const pubkey = publicKeyOf(secretKey);
  const id = eventId(pubkey, event);
  const sig = Buffer.from(schnorr.sign(Buffer.from(id, 'hex'), Buffer.from(secretKey, 'hex'))).toString('hex');
  return { id, pubkey, created_at: event.created_at, kind: event.kind, tags: event.tags, content: event.content, sig };
}

/** Whether an event's id is the hash of its fields and its signature is its author's. */
export function verifyEvent(event: NostrEvent): boolean {
  try {
    if (eventId(event.pubkey, event) !== event.id) return false;
    return schnorr.verify(Buffer.from(event.sig, 'hex'), Buffer.from(event.id, 'hex'), Buffer.from(event.pubkey, 'hex'));
  } catch {
    return false;
  }
}
