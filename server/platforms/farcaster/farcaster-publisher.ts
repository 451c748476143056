// Farcaster live adapter: one cast through Neynar, signed by the managed signer the account
// approved when it was connected (the connection's token is its signer_uuid).
//
// Source: https://docs.neynar.com/reference/publish-cast
//   POST /v2/farcaster/cast { signer_uuid, text, embeds: [{ url }] (at most 2), channel_id,
//   idem } → { success, cast: { hash, author: { fid }, text } }
// `idem` is Neynar's idempotency key ("used to prevent duplicate requests. Use the same idem key
// on retry attempts"; 16 characters recommended): derived from the target's key, so every
// attempt of one target sends the same one.
// The permalink is the cast on the Farcaster client, https://farcaster.xyz/<username>/<the
// hash's first 10 characters> (the cast URL form Neynar's lookup reads,
// https://docs.neynar.com/docs/how-to-get-cast-information-from-url); postedId is the full hash.
import { createHash } from 'node:crypto';
import { PlatformError, TokenExpiredError, type Publisher, type PublishableConnection } from '../publisher';
import { jsonString } from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { mediaItems } from '../media';
import { neynarFor, type NeynarOptions } from './neynar-api';

const { media } = PLATFORM_CATALOGUE.farcaster;

/** The account the connection casts as, as the connect flow stored it. */
export function farcasterAccount(connection: PublishableConnection): { fid: number; username: string } {
  const fid = Number(connection.platformData?.fid);
  const username = connection.platformData?.username;
  if (!Number.isInteger(fid) || fid <= 0 || typeof username !== 'string' || !username) {
    throw new TokenExpiredError('No Farcaster account is stored for this connection; reconnect it to publish.');
  }
  return { fid, username };
}

export function farcasterPermalink(username: string, hash: string): string {
  return `https://farcaster.xyz/${encodeURIComponent(username)}/${hash.slice(0, 10)}`;
}

/** The idem of a target: 16 characters, as Neynar recommends, the same on every attempt. */
export function farcasterIdem(idempotencyKey: string): string {
  return createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 16);
}

function signerOf(connection: PublishableConnection): string {
  if (!connection.accessToken) throw new TokenExpiredError('No Farcaster signer is stored for this connection; reconnect it to publish.');
  return connection.accessToken;
}

export function createFarcasterPublisher(options: NeynarOptions = {}): Publisher<'farcaster'> {
  return {
    async publish(connection, request) {
      const account = farcasterAccount(connection);
      const items = mediaItems(request);
      if (items.length > media.maxItems) throw new PlatformError(`A cast takes at most ${media.maxItems} embeds`);
      if (!request.content.trim() && items.length === 0) throw new PlatformError('A cast needs text or media');
      const created = await neynarFor(options).post('/v2/farcaster/cast', {
        signer_uuid: signerOf(connection),
        text: request.content,
        ...(items.length ? { embeds: items.map((item) => ({ url: item.url })) } : {}),
        ...(request.settings.channel ? { channel_id: request.settings.channel } : {}),
        ...(request.idempotencyKey ? { idem: farcasterIdem(request.idempotencyKey) } : {}),
      });
      const hash = jsonString(created, 'cast', 'hash');
      if (!hash) throw new PlatformError('Neynar accepted the cast but returned no hash');
      return { postedId: hash, permalink: farcasterPermalink(account.username, hash) };
    },
  };
}
