// The signed key request Farcaster asks of an app that requests a key on a user's account: an
// EIP-712 signature, by the custody address of the app's own account, of
// SignedKeyRequest(uint256 requestFid, bytes key, uint256 deadline) on the domain of the
// SignedKeyRequestValidator contract (name "Farcaster SignedKeyRequestValidator", version "1",
// chain 10 = OP Mainnet, verifyingContract 0x00000000fc700472606ed4fa22623acf62c60553).
// Sources: https://docs.farcaster.xyz/reference/contracts/reference/signed-key-request-validator
// and https://docs.neynar.com/docs/write-to-farcaster-with-neynar-managed-signers (step 2: the
// signature Neynar's POST /v2/farcaster/signer/signed_key takes).
// The typed-data digest is EIP-712's (https://eips.ethereum.org/EIPS/eip-712):
// keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(message)); the signature is secp256k1 over
// that digest, written r ‖ s ‖ v with v = 27 + the recovery bit, as Ethereum wallets write it.
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3.js';

export const SIGNED_KEY_REQUEST_DOMAIN = {
  name: 'Farcaster SignedKeyRequestValidator',
  version: '1',
  chainId: 10,
  verifyingContract: '0x00000000fc700472606ed4fa22623acf62c60553',
} as const;

export interface Eip712Domain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: string;
}

const utf8 = (s: string) => new TextEncoder().encode(s);

export function hexToBytes(hex: string): Uint8Array {
  const clean = hex.replace(/^0x/i, '');
  if (clean.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(clean)) throw new Error('not a hex string');
  return Uint8Array.from(clean.match(/../g) ?? [], (b) => parseInt(b, 16));
}

export function bytesToHex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes).toString('hex')}`;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** An ABI word: a uint256 (or an address, left-padded). */
function word(value: bigint | Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  if (value instanceof Uint8Array) {
    out.set(value, 32 - value.length);
    return out;
  }
  let v = value;
  for (let i = 31; i >= 0 && v > 0n; i--, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

const DOMAIN_TYPE = keccak_256(utf8('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'));
const REQUEST_TYPE = keccak_256(utf8('SignedKeyRequest(uint256 requestFid,bytes key,uint256 deadline)'));

export function domainSeparator(domain: Eip712Domain): Uint8Array {
  return keccak_256(
    concat(
      DOMAIN_TYPE,
      keccak_256(utf8(domain.name)),
      keccak_256(utf8(domain.version)),
      word(BigInt(domain.chainId)),
      word(hexToBytes(domain.verifyingContract)),
    ),
  );
}

export interface SignedKeyRequest {
  /** The app's fid. */
  requestFid: number | bigint;
  /** The Ed25519 public key of the signer to add (32 bytes, hex). */
  key: string;
  /** Unix seconds after which the request is void. */
  deadline: number | bigint;
}

/** What the custody key signs: the EIP-712 digest of the request on the validator's domain. */
export function signedKeyRequestDigest(request: SignedKeyRequest, domain: Eip712Domain = SIGNED_KEY_REQUEST_DOMAIN): Uint8Array {
  const struct = keccak_256(concat(REQUEST_TYPE, word(BigInt(request.requestFid)), keccak_256(hexToBytes(request.key)), word(BigInt(request.deadline))));
  return keccak_256(concat(Uint8Array.of(0x19, 0x01), domainSeparator(domain), struct));
}

/** The custody key's signature of the request, 0x-hex r ‖ s ‖ v. */
export function signSignedKeyRequest(privateKey: string, request: SignedKeyRequest): string {
  const signature = secp256k1.sign(signedKeyRequestDigest(request), hexToBytes(privateKey));
  return bytesToHex(concat(signature.toCompactRawBytes(), Uint8Array.of(27 + signature.recovery)));
}

/** The Ethereum address of a secp256k1 public key: the last 20 bytes of keccak256 of its uncompressed point. */
export function ethereumAddress(publicKey: Uint8Array): string {
  const point = secp256k1.ProjectivePoint.fromHex(publicKey).toRawBytes(false);
  return bytesToHex(keccak_256(point.subarray(1)).subarray(12));
}

export function addressOfPrivateKey(privateKey: string): string {
  return ethereumAddress(secp256k1.getPublicKey(hexToBytes(privateKey), false));
}

/** Who signed `digest`: the address recovered from an r ‖ s ‖ v signature. */
export function recoverSigner(digest: Uint8Array, signatureHex: string): string {
  const bytes = hexToBytes(signatureHex);
  if (bytes.length !== 65) throw new Error('a signature is 65 bytes');
  const v = bytes[64]!;
  const signature = secp256k1.Signature.fromCompact(bytes.subarray(0, 64)).addRecoveryBit(v >= 27 ? v - 27 : v);
  return ethereumAddress(signature.recoverPublicKey(digest).toRawBytes(false));
}
