// NIP-19 (https://github.com/nostr-protocol/nips/blob/master/19.md): keys and ids shown to people
// as bech32 (BIP-173, https://github.com/bitcoin/bips/blob/master/bip-0173.mediawiki; bech32,
// not bech32m): npub (a public key), nsec (a secret key), note (an event id), and nevent (an
// event id with TLV hints: 0 the id, 1 a relay in ASCII, 2 the author, 3 the kind, big-endian).
// Written here as the few lines BIP-173 takes; NIP-19 strings are longer than BIP-173's 90
// characters, so the length limit is NIP-19's practical one instead.

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
/** Long enough for an nevent with a few relay hints. */
const MAX_LENGTH = 5000;

function polymod(values: number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GENERATOR[i]!;
  }
  return chk >>> 0;
}

function hrpExpand(hrp: string): number[] {
  const codes = [...hrp].map((c) => c.charCodeAt(0));
  return [...codes.map((c) => c >> 5), 0, ...codes.map((c) => c & 31)];
}

/** Regroups bits (8 → 5 to encode, 5 → 8 to decode), as BIP-173's reference does. */
function convertBits(data: ArrayLike<number>, from: number, to: number, pad: boolean): number[] {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const max = (1 << to) - 1;
  for (let i = 0; i < data.length; i++) {
    const value = data[i]!;
    if (value < 0 || value >> from !== 0) throw new Error('Invalid bech32 data');
    acc = (acc << from) | value;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >> bits) & max);
    }
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & max);
  } else if (bits >= from || ((acc << (to - bits)) & max) !== 0) {
    throw new Error('Invalid bech32 padding');
  }
  return out;
}

export function bech32Encode(hrp: string, bytes: Uint8Array): string {
  const words = convertBits(bytes, 8, 5, true);
  const values = [...hrpExpand(hrp), ...words, 0, 0, 0, 0, 0, 0];
  const mod = polymod(values) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...words, ...checksum].map((w) => CHARSET[w]).join('')}`;
}

export function bech32Decode(input: string): { hrp: string; bytes: Uint8Array } {
  if (input.length > MAX_LENGTH) throw new Error('The bech32 string is too long');
  if (input !== input.toLowerCase() && input !== input.toUpperCase()) throw new Error('A bech32 string is all lower case or all upper case');
  const text = input.toLowerCase();
  const separator = text.lastIndexOf('1');
  if (separator < 1 || separator + 7 > text.length) throw new Error('Not a bech32 string');
  const hrp = text.slice(0, separator);
  const words = [...text.slice(separator + 1)].map((c) => CHARSET.indexOf(c));
  if (words.some((w) => w < 0)) throw new Error('The bech32 string has a character outside its alphabet');
  if (polymod([...hrpExpand(hrp), ...words]) !== 1) throw new Error('The bech32 checksum does not match');
  return { hrp, bytes: Uint8Array.from(convertBits(words.slice(0, -6), 5, 8, false)) };
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytesOf = (hexText: string, size: number) => {
  if (!new RegExp(`^[0-9a-f]{${size * 2}}$`).test(hexText)) throw new Error(`Expected ${size} bytes as lowercase hex`);
  return Uint8Array.from(Buffer.from(hexText, 'hex'));
};

/** A 32-byte key or id under its prefix (npub, nsec, note). */
export function encodeBare(prefix: 'npub' | 'nsec' | 'note', hexText: string): string {
  return bech32Encode(prefix, bytesOf(hexText, 32));
}

/** The 32 bytes (as hex) of an npub, nsec or note; throws on another prefix or a bad checksum. */
export function decodeBare(prefix: 'npub' | 'nsec' | 'note', value: string): string {
  const { hrp, bytes } = bech32Decode(value.trim());
  if (hrp !== prefix) throw new Error(`Expected an ${prefix}, not an ${hrp}`);
  if (bytes.length !== 32) throw new Error(`An ${prefix} holds 32 bytes`);
  return hex(bytes);
}

/** An nevent: the event id, relay hints, the author and the kind (TLV 0, 1, 2, 3). */
export function encodeNevent(event: { id: string; relays?: readonly string[]; author?: string; kind?: number }): string {
  const parts: number[] = [];
  const tlv = (type: number, value: Uint8Array) => {
    if (value.length > 255) throw new Error('A TLV value holds at most 255 bytes');
    parts.push(type, value.length, ...value);
  };
  tlv(0, bytesOf(event.id, 32));
  for (const relay of event.relays ?? []) tlv(1, Uint8Array.from(Buffer.from(relay, 'ascii')));
  if (event.author) tlv(2, bytesOf(event.author, 32));
  if (event.kind !== undefined) {
    const kind = Buffer.alloc(4);
    kind.writeUInt32BE(event.kind);
    tlv(3, kind);
  }
  return bech32Encode('nevent', Uint8Array.from(parts));
}

/** The TLV items of an nprofile or nevent, by type (types it does not know are kept, as NIP-19 asks to ignore them). */
export function decodeTlv(value: string): { hrp: string; items: { type: number; value: Uint8Array }[] } {
  const { hrp, bytes } = bech32Decode(value);
  const items: { type: number; value: Uint8Array }[] = [];
  for (let i = 0; i + 2 <= bytes.length;) {
    const type = bytes[i]!;
    const length = bytes[i + 1]!;
    if (i + 2 + length > bytes.length) throw new Error('A TLV item runs past the end');
    items.push({ type, value: bytes.slice(i + 2, i + 2 + length) });
    i += 2 + length;
  }
  return { hrp, items };
}
