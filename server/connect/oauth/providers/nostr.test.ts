// Connecting a Nostr account: a pasted nsec or a key Herald makes (NIP-19,
// https://github.com/nostr-protocol/nips/blob/master/19.md, with its example key), and relays that
// pass the outbound guard's rules before anything is kept.
import { describe, expect, it } from 'vitest';
import { guardedFetch } from '@/server/outbound';
import { decodeBare } from '@/server/platforms/nostr/nip19';
import { publicKeyOf } from '@/server/platforms/nostr/nostr-event';
import { OAuthFlowError } from '../oauth-provider';
import { nostrCredentials } from './nostr';

const NSEC = 'nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5';
const SECRET = '67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa';

describe('Nostr connect', () => {
  it('keeps a pasted key (as its hex, sealed like every token) and the relays, shown by the npub', async () => {
    const [account, ...more] = await nostrCredentials.connect(guardedFetch, {
      nsec: ` ${NSEC} `,
      relays: 'wss://relay.damus.io, wss://nos.lol/\nwss://relay.damus.io',
    });
    expect(more).toEqual([]);
    const pubkey = publicKeyOf(SECRET);
    expect(account).toMatchObject({
      externalId: pubkey,
      accessToken: SECRET,
      refreshToken: null,
      expiresAt: null,
      kind: 'Nostr key',
      platformData: { relays: 'wss://relay.damus.io wss://nos.lol', generated: false },
    });
    expect(decodeBare('npub', account!.accountName)).toBe(pubkey);
    expect(account!.platformData!.npub).toBe(account!.accountName);
  });

  it('makes a new key when none is pasted', async () => {
    const [a] = await nostrCredentials.connect(guardedFetch, { nsec: '', relays: 'wss://nos.lol' });
    const [b] = await nostrCredentials.connect(guardedFetch, { relays: 'wss://nos.lol' });
    expect(a!.accessToken).toMatch(/^[0-9a-f]{64}$/);
    expect(a!.accessToken).not.toBe(b!.accessToken);
    expect(a!.externalId).toBe(publicKeyOf(a!.accessToken));
    expect(a!.kind).toBe('Nostr key made by Herald');
    expect(a!.platformData!.generated).toBe(true);
  });

  it('refuses a key that is not an nsec, and relays the outbound guard refuses', async () => {
    const npub = 'npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg';
    await expect(nostrCredentials.connect(guardedFetch, { nsec: npub, relays: 'wss://nos.lol' })).rejects.toThrow('Expected an nsec, not an npub');
    await expect(nostrCredentials.connect(guardedFetch, { nsec: NSEC.slice(0, -1) + 'q', relays: 'wss://nos.lol' })).rejects.toThrow('checksum');
    await expect(nostrCredentials.connect(guardedFetch, { relays: 'ws://nos.lol' })).rejects.toThrow(
      'Herald cannot use the relay ws://nos.lol: Only wss:// addresses are allowed.',
    );
    await expect(nostrCredentials.connect(guardedFetch, { relays: 'wss://192.168.1.4' })).rejects.toBeInstanceOf(OAuthFlowError);
    await expect(nostrCredentials.connect(guardedFetch, { relays: 'wss://localhost:7777' })).rejects.toThrow('Local host names are not allowed.');
    await expect(nostrCredentials.connect(guardedFetch, { relays: '  ' })).rejects.toThrow('Name at least one relay');
  });
});
