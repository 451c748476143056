// The guard of sockets Herald opens itself (Nostr relays): wss:// addresses judged by the same
// rules as https:// ones, and the socket's lookup refusing a name that resolves to a private
// address, before any connection is made.
import { describe, expect, it } from 'vitest';
import { OutboundRefusedError } from './errors';
import { createSocketGuard } from './socket-guard';

describe('createSocketGuard', () => {
  const guard = createSocketGuard({ allowHosts: [] });

  it('takes a public wss:// address and refuses what an https:// one would be refused for', () => {
    const ok = guard.check('wss://relay.damus.io/');
    expect(ok.ok && ok.url.href).toBe('wss://relay.damus.io/');
    expect(guard.check('ws://relay.damus.io')).toMatchObject({ ok: false, code: 'not_https' });
    expect(guard.check('https://relay.damus.io')).toMatchObject({ ok: false, code: 'not_https' });
    expect(guard.check('wss://127.0.0.1:7777')).toMatchObject({ ok: false, code: 'private_address' });
    expect(guard.check('wss://[::1]')).toMatchObject({ ok: false, code: 'private_address' });
    expect(guard.check('wss://localhost')).toMatchObject({ ok: false, code: 'localhost' });
    expect(guard.check('wss://user:pw@relay.example')).toMatchObject({ ok: false, code: 'credentials_in_url' });
    expect(guard.check('not a url')).toMatchObject({ ok: false, code: 'invalid_url' });
    expect(createSocketGuard({ allowHosts: ['127.0.0.1'] }).check('wss://127.0.0.1:7777').ok).toBe(true);
  });

  it('refuses, in the lookup, a name any of whose addresses is private', async () => {
    const resolving = createSocketGuard({
      allowHosts: [],
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
    });
    const error = await new Promise<unknown>((resolve) => resolving.lookup('relay.example', { all: true }, (err) => resolve(err)));
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as OutboundRefusedError).reason).toBe('relay.example resolves to 10.0.0.7, which is private or reserved, not a public internet address.');
  });
});
