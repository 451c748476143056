// The Bluesky messages client against the documented chat shapes, served by the local HTTPS
// stand-in (as the account's PDS, which proxies chat.bsky.* to the chat service) through the
// guarded client.
//   https://docs.bsky.app/docs/api/chat-bsky-convo-list-convos (convoView, members, lastMessage)
//   https://docs.bsky.app/docs/api/chat-bsky-convo-get-messages (messageView, deletedMessageView)
//   https://docs.bsky.app/docs/api/chat-bsky-convo-send-message
//   https://atproto.com/specs/xrpc#service-proxying (atproto-proxy)
//   https://docs.bsky.app/docs/api/com-atproto-server-refresh-session (an expired access JWT)
import { describe, expect, it } from 'vitest';
import type { ConversationsContext } from '../conversations';
import { PlatformError, TokenExpiredError } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { createBlueskyMessagesClient, type BlueskyMessagesOptions } from './bluesky-messages';

const DID = 'did:plc:z72i7hdynmk6r22z27h6tvur';
const ALICE = 'did:plc:ewvi7nxzyoun6zhxrhs64oiz';
const BOB = 'did:plc:jfhpnnst6flqway4eaeqzj2a';
const xrpc = (nsid: string) => `/xrpc/${nsid}`;

const api = useFakePlatformApi();
const account = () =>
  liveConnection('bluesky', {
    externalId: DID,
    accountName: '@heraldcoffee.bsky.social',
    accessToken: 'access-jwt',
    platformData: { did: DID, handle: 'heraldcoffee.bsky.social', pds: 'https://morel.us-east.host.bsky.network' },
  });
const ctx = (): ConversationsContext => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T12:00:00Z') });
const client = (extra: Partial<BlueskyMessagesOptions> = {}) => createBlueskyMessagesClient({ fetch: api.fetch, baseUrl: api.baseUrl, ...extra });

const me = { did: DID, handle: 'heraldcoffee.bsky.social', displayName: 'Herald Coffee', avatar: 'https://cdn.bsky.app/img/avatar/plain/herald.jpg' };
const alice = { did: ALICE, handle: 'alice.bsky.social', displayName: 'Alice Moreau', avatar: 'https://cdn.bsky.app/img/avatar/plain/alice.jpg' };
const bob = { did: BOB, handle: 'handle.invalid' };
const view = (id: string, sender: string, text: string, sentAt: string) => ({
  $type: 'chat.bsky.convo.defs#messageView',
  id,
  rev: `2222${id}`,
  text,
  sender: { did: sender },
  sentAt,
});
const convo = (id: string, members: unknown[], lastMessage: unknown) => ({
  id,
  rev: '22223',
  members,
  lastMessage,
  muted: false,
  status: 'accepted',
  unreadCount: 1,
});

const LIST = {
  convos: [
    convo('3ksgyqaxq5o2a', [me, alice], view('3ksgyr4mw7k2b', ALICE, 'Do you roast decaf?', '2026-11-27T10:05:00.000Z')),
    convo('3ksgz2rgk4c2c', [me, bob], view('3ksgz3bqhfk2d', BOB, 'hello', '2026-11-26T08:00:00.000Z')),
    convo('3ksgz9empty2e', [me, alice], undefined),
  ],
};
const ALICE_MESSAGES = {
  messages: [
    view('3ksgyr4mw7k2b', ALICE, 'Do you roast decaf?', '2026-11-27T10:05:00.000Z'),
    { $type: 'chat.bsky.convo.defs#deletedMessageView', id: '3ksgyq9old22a', rev: '22221', sender: { did: ALICE }, sentAt: '2026-11-27T10:04:00.000Z' },
    view('3ksgyq7mine2a', DID, 'Hi Alice, welcome!', '2026-11-27T10:00:00.000Z'),
  ],
  cursor: '3ksgyq7mine2a',
};
const BOB_MESSAGES = { messages: [view('3ksgz3bqhfk2d', BOB, 'hello', '2026-11-26T08:00:00.000Z')] };

describe('Bluesky messages', () => {
  it('lists the conversations then reads each one’s messages through the chat proxy; a deleted message is left out', async () => {
    api.on('GET', xrpc('chat.bsky.convo.listConvos'), { json: LIST });
    api.on('GET', xrpc('chat.bsky.convo.getMessages'), (req) => ({ json: req.query.get('convoId') === '3ksgyqaxq5o2a' ? ALICE_MESSAGES : BOB_MESSAGES }));

    const read = await client().readMessages(account(), null, ctx());

    const [list] = api.calls('GET', xrpc('chat.bsky.convo.listConvos'));
    expect(list!.headers['atproto-proxy']).toBe('did:web:api.bsky.chat#bsky_chat');
    expect(list!.headers.authorization).toBe('Bearer access-jwt');
    expect(Object.fromEntries(list!.query)).toEqual({ limit: '100' });
    // No message yet in the third conversation: nothing to ask; a first read takes one page each,
    // the least recently active conversation first.
    expect(api.calls('GET', xrpc('chat.bsky.convo.getMessages')).map((r) => Object.fromEntries(r.query))).toEqual([
      { convoId: '3ksgz2rgk4c2c', limit: '100' },
      { convoId: '3ksgyqaxq5o2a', limit: '100' },
    ]);

    expect(read.messages.map((m) => [m.id, m.conversationId, m.counterpartId, m.fromAccount])).toEqual([
      ['3ksgyr4mw7k2b', '3ksgyqaxq5o2a', ALICE, false],
      ['3ksgyq7mine2a', '3ksgyqaxq5o2a', ALICE, true],
      ['3ksgz3bqhfk2d', '3ksgz2rgk4c2c', BOB, false],
    ]);
    expect(read.messages[0]).toEqual({
      id: '3ksgyr4mw7k2b',
      conversationId: '3ksgyqaxq5o2a',
      counterpartId: ALICE,
      authorId: ALICE,
      authorName: 'Alice Moreau',
      authorHandle: '@alice.bsky.social',
      authorAvatarUrl: 'https://cdn.bsky.app/img/avatar/plain/alice.jpg',
      text: 'Do you roast decaf?',
      attachmentUrl: null,
      createdAt: new Date('2026-11-27T10:05:00Z'),
      fromAccount: false,
    });
    expect(read.messages[1]!.authorName).toBe('Herald Coffee');
    // An invalid handle names nobody: the DID does.
    expect(read.messages[2]).toMatchObject({ authorName: BOB, authorHandle: null });
    expect(read.cursor).toBe('2026-11-27T10:05:00.000Z');
  });

  it('from a cursor, skips conversations not active since and pages a conversation while its messages are newer', async () => {
    api.on('GET', xrpc('chat.bsky.convo.listConvos'), { json: { ...LIST, cursor: 'next-convos' } });
    api.on(
      'GET',
      xrpc('chat.bsky.convo.getMessages'),
      {
        json: {
          messages: [
            view('3ksh0new2222a', ALICE, 'And oat milk?', '2026-11-27T11:00:00.000Z'),
            view('3ksh0new1111a', ALICE, 'One more thing', '2026-11-27T10:50:00.000Z'),
          ],
          cursor: 'older-page',
        },
      },
      { json: ALICE_MESSAGES },
    );

    const read = await client().readMessages(account(), '2026-11-27T10:05:00.000Z', ctx());

    expect(read.messages.map((m) => m.id)).toEqual(['3ksh0new2222a', '3ksh0new1111a', '3ksgyr4mw7k2b']);
    const pages = api.calls('GET', xrpc('chat.bsky.convo.getMessages'));
    expect(pages.map((r) => [r.query.get('convoId'), r.query.get('cursor')])).toEqual([
      ['3ksgyqaxq5o2a', null],
      ['3ksgyqaxq5o2a', 'older-page'],
    ]);
    // Bob's conversation is older than the cursor: the list is not read further.
    expect(api.calls('GET', xrpc('chat.bsky.convo.listConvos'))).toHaveLength(1);
    expect(read.cursor).toBe('2026-11-27T11:00:00.000Z');
  });

  it('out of calls, stops its cursor where every conversation before is read, and the next read goes on from there', async () => {
    const carol = { did: 'did:plc:carol5bq2fzqwcmkk3dbvjse', handle: 'carol.bsky.social', displayName: 'Carol' };
    api.on('GET', xrpc('chat.bsky.convo.listConvos'), {
      json: {
        convos: [
          convo('3ksgyqaxq5o2a', [me, alice], view('3ksgyr4mw7k2b', ALICE, 'Do you roast decaf?', '2026-11-27T10:05:00.000Z')),
          convo('3ksh2carol22a', [me, carol], view('3ksh2c2222c2a', carol.did, 'Thanks!', '2026-11-27T09:30:00.000Z')),
          convo('3ksgz2rgk4c2c', [me, bob], view('3ksgz3bqhfk2d', BOB, 'hello', '2026-11-26T08:00:00.000Z')),
        ],
      },
    });
    api.on('GET', xrpc('chat.bsky.convo.getMessages'), (req) => ({
      json:
        req.query.get('convoId') === '3ksh2carol22a'
          ? {
              messages: [
                view('3ksh2c2222c2a', carol.did, 'Thanks!', '2026-11-27T09:30:00.000Z'),
                view('3ksh2c1111c2a', carol.did, 'Hi', '2026-11-27T08:00:00.000Z'),
              ],
            }
          : ALICE_MESSAGES,
    }));

    const read = await client({ maxPages: 2 }).readMessages(account(), '2026-11-27T09:00:00.000Z', ctx());
    expect(read.messages.map((m) => m.id)).toEqual(['3ksh2c2222c2a']);
    expect(read.cursor).toBe('2026-11-27T09:30:00.000Z');

    api.reset();
    api.on('GET', xrpc('chat.bsky.convo.listConvos'), { json: LIST });
    api.on('GET', xrpc('chat.bsky.convo.getMessages'), { json: { messages: ALICE_MESSAGES.messages } });
    const next = await client({ maxPages: 2 }).readMessages(account(), read.cursor, ctx());
    expect(next.messages.map((m) => m.id)).toEqual(['3ksgyr4mw7k2b', '3ksgyq7mine2a']);
    expect(next.cursor).toBe('2026-11-27T10:05:00.000Z');
  });

  it('sends the answer with sendMessage through the proxy, links as facets', async () => {
    api.on('POST', xrpc('chat.bsky.convo.sendMessage'), {
      json: view('3ksh1sent222a', DID, 'Yes: https://herald.example/decaf', '2026-11-27T12:00:01.000Z'),
    });

    const sent = await client().sendMessage(
      account(),
      { conversationId: '3ksgyqaxq5o2a', counterpartId: ALICE },
      { text: 'Yes: https://herald.example/decaf' },
      ctx(),
    );

    expect(sent).toEqual({ id: '3ksh1sent222a' });
    const [request] = api.calls('POST', xrpc('chat.bsky.convo.sendMessage'));
    expect(request!.headers['atproto-proxy']).toBe('did:web:api.bsky.chat#bsky_chat');
    expect(request!.json()).toEqual({
      convoId: '3ksgyqaxq5o2a',
      message: {
        text: 'Yes: https://herald.example/decaf',
        facets: [{ index: { byteStart: 5, byteEnd: 33 }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://herald.example/decaf' }] }],
      },
    });

    const image = await failure(
      client().sendMessage(
        account(),
        { conversationId: '3ksgyqaxq5o2a', counterpartId: ALICE },
        { text: 'x', imageUrl: 'https://media.herald.example/a.jpg' },
        ctx(),
      ),
    );
    expect(image.message).toMatch(/no image/);
  });

  it('says an app password without chat access is refused as such, not as a dead session', async () => {
    api.on('GET', xrpc('chat.bsky.convo.listConvos'), { status: 400, json: { error: 'InvalidToken', message: 'Bad token scope' } });
    const error = await failure(client().readMessages(account(), null, ctx()));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toMatch(/^Bluesky refused access to direct messages \(Bad token scope\)/);
  });

  it('fails the connection with TokenExpiredError when the session is refused and cannot be refreshed', async () => {
    api.on('GET', xrpc('chat.bsky.convo.listConvos'), { status: 400, json: { error: 'ExpiredToken', message: 'Token has expired' } });
    api.on('POST', xrpc('com.atproto.server.refreshSession'), { status: 400, json: { error: 'ExpiredToken', message: 'Token has been revoked' } });
    const tokens = new MemoryTokenStore();
    const connection = account();
    tokens.set(connection.id, { accessToken: 'access-jwt', refreshToken: 'refresh-jwt', expiresAt: null });
    const error = await failure(client().readMessages(connection, null, { tokens, now: new Date() }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Token has been revoked');

    api.on('POST', xrpc('chat.bsky.convo.sendMessage'), {
      status: 400,
      json: { error: 'InvalidRequest', message: 'recipient has disabled incoming messages' },
    });
    const refused = await failure(client().sendMessage(account(), { conversationId: '3ksgyqaxq5o2a', counterpartId: ALICE }, { text: 'Hi' }, ctx()));
    expect(refused).toBeInstanceOf(PlatformError);
    expect(refused).not.toBeInstanceOf(TokenExpiredError);
    expect(refused.message).toBe('recipient has disabled incoming messages');
  });
});
