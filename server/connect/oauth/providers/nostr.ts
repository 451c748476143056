// Nostr: no server and no app. The client pastes their secret key as an nsec (NIP-19,
// https://github.com/nostr-protocol/nips/blob/master/19.md), or leaves it empty and Herald makes
// a new key pair; either way the key is kept sealed as the connection's token and the account
// is shown by its npub. The client names the relays Herald sends notes to: wss:// addresses
// that pass Herald's outbound guard (each resolved address is checked again when a socket opens).
import { createSocketGuard } from '@/server/outbound';
import { decodeBare, encodeBare } from '@/server/platforms/nostr/nip19';
import { isSecretKey, newSecretKey, publicKeyOf } from '@/server/platforms/nostr/nostr-event';
import { OAuthFlowError, type CredentialsProvider, type GrantedAccount } from '../oauth-provider';

/** The most relays one account sends to. */
export const NOSTR_MAX_RELAYS = 10;

/** The relays as typed (spaces, commas or lines between them), each checked; throws with the first refusal. */
export function nostrRelayList(input: string): string[] {
  const guard = createSocketGuard();
  const relays: string[] = [];
  for (const typed of input.split(/[\s,]+/).filter(Boolean)) {
    const checked = guard.check(typed);
    if (!checked.ok) throw new OAuthFlowError(`Herald cannot use the relay ${typed}: ${checked.reason}`);
    const relay = checked.url.href.replace(/\/$/, '');
    if (!relays.includes(relay)) relays.push(relay);
  }
  if (relays.length === 0) throw new OAuthFlowError('Name at least one relay, for example wss://relay.damus.io.');
  if (relays.length > NOSTR_MAX_RELAYS) throw new OAuthFlowError(`Name at most ${NOSTR_MAX_RELAYS} relays.`);
  return relays;
}

function secretKeyFrom(typed: string): string {
  let key: string;
  try {
    key = decodeBare('nsec', typed);
  } catch (error) {
    throw new OAuthFlowError(`That is not a Nostr secret key (nsec1…): ${error instanceof Error ? error.message : String(error)}.`);
  }
  if (!isSecretKey(key)) throw new OAuthFlowError('That nsec does not hold a valid secret key.');
  return key;
}

export const nostrCredentials: CredentialsProvider = {
  kind: 'credentials',
  label: 'Nostr',
  choose: false,
  fields: [
    {
      name: 'nsec',
      label: 'Secret key (nsec)',
      type: 'password',
      placeholder: 'nsec1…',
      help: 'Your key, kept sealed. Leave it empty and Herald makes a new key; the account is then shown by its npub.',
      optional: true,
    },
    {
      name: 'relays',
      label: 'Relays',
      type: 'text',
      placeholder: 'wss://relay.damus.io wss://nos.lol',
      help: `The relays Herald sends your notes to (wss:// addresses, up to ${NOSTR_MAX_RELAYS}).`,
    },
  ],
  available: () => true,
  needsDeploymentSetup: false,
  instructions: async () => 'Paste your Nostr secret key (nsec), or leave it empty for a new key, and name the relays to post to.',

  async connect(_fetch, values): Promise<GrantedAccount[]> {
    const relays = nostrRelayList(values.relays ?? '');
    const typed = values.nsec?.trim() ?? '';
    const generated = typed === '';
    const secretKey = generated ? newSecretKey() : secretKeyFrom(typed);
    const pubkey = publicKeyOf(secretKey);
    const npub = encodeBare('npub', pubkey);
    return [
      {
        externalId: pubkey,
        accountName: npub,
        displayName: `Nostr ${npub.slice(0, 12)}…${npub.slice(-6)}`,
        avatarUrl: null,
        accessToken: secretKey,
        refreshToken: null,
        expiresAt: null,
        scopes: null,
        kind: generated ? 'Nostr key made by Herald' : 'Nostr key',
        platformData: { relays: relays.join(' '), npub, generated },
      },
    ];
  },
};
