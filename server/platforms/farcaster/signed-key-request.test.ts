// The signed key request's EIP-712 signature, checked against published values: Keccak-256 of
// the empty string (https://keccak.team/index.html test vectors), EIP-712's own example domain
// separator (https://eips.ethereum.org/EIPS/eip-712, "Ether Mail", its Example.js output), a
// well-known private key's address, and a signature that recovers to the key that made it and
// to no other when anything signed changes.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import {
  addressOfPrivateKey,
  bytesToHex,
  domainSeparator,
  recoverSigner,
  SIGNED_KEY_REQUEST_DOMAIN,
  signedKeyRequestDigest,
  signSignedKeyRequest,
} from './signed-key-request';

// The first account of the standard test mnemonic ("test test … junk"), published with its address.
const PRIVATE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const request = { requestFid: 9152, key: `0x${'ab'.repeat(32)}`, deadline: 1_767_225_600 };

describe('the signed key request signature', () => {
  it('hashes with Keccak-256, not SHA3-256', () => {
    expect(bytesToHex(keccak_256(new Uint8Array()))).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  });

  it('hashes an EIP-712 domain as the standard’s example does', () => {
    const mail = { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' };
    expect(bytesToHex(domainSeparator(mail))).toBe('0xf2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f');
  });

  it('derives the address of a private key', () => {
    expect(addressOfPrivateKey(PRIVATE_KEY)).toBe(ADDRESS);
  });

  it('signs so that the custody address is recovered from the digest, and only from that digest', () => {
    const signature = signSignedKeyRequest(PRIVATE_KEY, request);
    expect(signature).toMatch(/^0x[0-9a-f]{128}(1b|1c)$/);
    expect(recoverSigner(signedKeyRequestDigest(request), signature)).toBe(ADDRESS);
    // Another deadline, key or fid is another digest: the same signature names someone else.
    expect(recoverSigner(signedKeyRequestDigest({ ...request, deadline: request.deadline + 1 }), signature)).not.toBe(ADDRESS);
    expect(recoverSigner(signedKeyRequestDigest({ ...request, key: `0x${'cd'.repeat(32)}` }), signature)).not.toBe(ADDRESS);
    expect(recoverSigner(signedKeyRequestDigest({ ...request, requestFid: 9153 }), signature)).not.toBe(ADDRESS);
    // And the validator's domain is part of it.
    expect(recoverSigner(signedKeyRequestDigest(request, { ...SIGNED_KEY_REQUEST_DOMAIN, chainId: 1 }), signature)).not.toBe(ADDRESS);
  });
});
