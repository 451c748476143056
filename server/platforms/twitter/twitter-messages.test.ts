// The X messages client against the documented DM event and send shapes, served by the local
// HTTPS stand-in through the guarded client.
//   https://docs.x.com/x-api/direct-messages/get-recent-direct-message-events (the read, paging)
//   https://docs.x.com/x-api/direct-messages/lookup/integrate (event types, conversation ids)
//   https://docs.x.com/x-api/direct-messages/send-a-new-message-to-a-dm-conversation (the answer)
//   x-api.ts (problem documents: errors[0].message, detail, title; 401 a refused token)
import { describe, expect, it } from 'vitest';
import type { ConversationsContext } from '../conversations';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { compareXIds, createTwitterMessagesClient, xConversationId, type TwitterMessagesOptions } from './twitter-messages';

const ME = '1577012345678901234';
const ANA = '944480690';
const GROUP = '1578398451921985538';
const ONE_TO_ONE = `${ANA}-${ME}`;

const api = useFakePlatformApi();
const connection = liveConnection('twitter', { externalId: ME, accountName: 'heraldcoffee', accessToken: 'x-user-token' });
const ctx = (): ConversationsContext => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T12:00:00Z') });
const client = (extra: Partial<TwitterMessagesOptions> = {}) => createTwitterMessagesClient({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', ...extra });

const FIRST_PAGE = {
  data: [
    {
      id: '1862000000000000300',
      event_type: 'MessageCreate',
      text: 'Yes, until 6 pm.',
      sender_id: ME,
      dm_conversation_id: ONE_TO_ONE,
      created_at: '2026-11-27T10:20:00.000Z',
    },
    {
      id: '1862000000000000200',
      event_type: 'MessageCreate',
      text: 'Are you open today?',
      sender_id: ANA,
      dm_conversation_id: ONE_TO_ONE,
      created_at: '2026-11-27T10:15:00.000Z',
    },
    {
      id: '1862000000000000150',
      event_type: 'ParticipantsJoin',
      participant_ids: [ANA],
      sender_id: '17200003',
      dm_conversation_id: GROUP,
      created_at: '2026-11-27T09:00:00.000Z',
    },
  ],
  includes: {
    users: [
      { id: ME, name: 'Herald Coffee', username: 'heraldcoffee', profile_image_url: 'https://pbs.twimg.com/profile_images/1/herald_normal.jpg' },
      { id: ANA, name: 'Ana Souza', username: 'anasouza', profile_image_url: 'https://pbs.twimg.com/profile_images/2/ana_normal.jpg' },
    ],
  },
  meta: { result_count: 3, next_token: '18LAA581J5II7LA00C00ZZZZ' },
};
const SECOND_PAGE = {
  data: [
    {
      id: '1862000000000000100',
      event_type: 'MessageCreate',
      text: 'Hi everyone.',
      sender_id: ANA,
      dm_conversation_id: GROUP,
      created_at: '2026-11-26T20:58:00.000Z',
    },
  ],
  includes: { users: [{ id: ANA, name: 'Ana Souza', username: 'anasouza' }] },
  meta: { result_count: 1 },
};

describe('X messages', () => {
  it('reads every page of DM events, messages only, with the senders’ names; the cursor is the newest event', async () => {
    api.on('GET', '/2/dm_events', { json: FIRST_PAGE }, { json: SECOND_PAGE });

    const read = await client().readMessages(connection, null, ctx());

    const [first, second] = api.calls('GET', '/2/dm_events');
    expect(first!.headers.authorization).toBe('Bearer x-user-token');
    expect(Object.fromEntries(first!.query)).toEqual({
      'dm_event.fields': 'id,text,event_type,dm_conversation_id,created_at,sender_id,attachments',
      event_types: 'MessageCreate',
      expansions: 'sender_id',
      'user.fields': 'name,username,profile_image_url',
      max_results: '100',
    });
    expect(second!.query.get('pagination_token')).toBe('18LAA581J5II7LA00C00ZZZZ');

    expect(read.messages.map((m) => [m.id, m.conversationId, m.counterpartId, m.fromAccount])).toEqual([
      ['1862000000000000300', ONE_TO_ONE, ANA, true],
      ['1862000000000000200', ONE_TO_ONE, ANA, false],
      // A group has no one person: its id stands for them.
      ['1862000000000000100', GROUP, GROUP, false],
    ]);
    expect(read.messages[1]).toEqual({
      id: '1862000000000000200',
      conversationId: ONE_TO_ONE,
      counterpartId: ANA,
      authorId: ANA,
      authorName: 'Ana Souza',
      authorHandle: '@anasouza',
      authorAvatarUrl: 'https://pbs.twimg.com/profile_images/2/ana_normal.jpg',
      text: 'Are you open today?',
      attachmentUrl: null,
      createdAt: new Date('2026-11-27T10:15:00Z'),
      fromAccount: false,
    });
    expect(read.cursor).toBe('1862000000000000300');
  });

  it('from a cursor, stops at the first event not newer than it', async () => {
    api.on('GET', '/2/dm_events', { json: FIRST_PAGE }, { json: SECOND_PAGE });
    const read = await client().readMessages(connection, '1862000000000000200', ctx());
    expect(read.messages.map((m) => m.id)).toEqual(['1862000000000000300']);
    expect(api.calls('GET', '/2/dm_events')).toHaveLength(1);
    expect(read.cursor).toBe('1862000000000000300');

    api.on('GET', '/2/dm_events', { json: { meta: { result_count: 0 } } });
    expect(await client().readMessages(connection, '1862000000000000300', ctx())).toEqual({ messages: [], cursor: '1862000000000000300' });
  });

  it('sends the answer into the conversation with { text }', async () => {
    const path = `/2/dm_conversations/${ONE_TO_ONE}/messages`;
    api.on('POST', path, { status: 201, json: { data: { dm_conversation_id: ONE_TO_ONE, dm_event_id: '1862000000000000400' } } });

    const sent = await client().sendMessage(connection, { conversationId: ONE_TO_ONE, counterpartId: ANA }, { text: 'Until 6 pm today!' }, ctx());
    expect(sent).toEqual({ id: '1862000000000000400' });
    expect(api.calls('POST', path)[0]!.json()).toEqual({ text: 'Until 6 pm today!' });

    // Without a conversation id, the one-to-one id is the two user ids, the smaller first.
    await client().sendMessage(connection, { conversationId: '', counterpartId: ANA }, { text: 'Hi' }, ctx());
    expect(api.calls('POST', path)).toHaveLength(2);
  });

  it('refuses an image it cannot send, and passes X’s refusals on in its words', async () => {
    const image = await failure(
      client().sendMessage(
        connection,
        { conversationId: ONE_TO_ONE, counterpartId: ANA },
        { text: 'x', imageUrl: 'https://media.herald.example/a.jpg' },
        ctx(),
      ),
    );
    expect(image.message).toMatch(/text only/);

    const path = `/2/dm_conversations/${ONE_TO_ONE}/messages`;
    api.on('POST', path, {
      status: 403,
      json: { detail: 'You are not permitted to send Direct Messages to this user.', title: 'Forbidden', type: 'about:blank', status: 403 },
    });
    const forbidden = await failure(client().sendMessage(connection, { conversationId: ONE_TO_ONE, counterpartId: ANA }, { text: 'Hi' }, ctx()));
    expect(forbidden).not.toBeInstanceOf(TokenExpiredError);
    expect(forbidden.message).toBe('You are not permitted to send Direct Messages to this user.');
  });

  it('fails the connection with TokenExpiredError for a refused token', async () => {
    api.on('GET', '/2/dm_events', { status: 401, json: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' } });
    const error = await failure(client().readMessages(connection, null, ctx()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Unauthorized');
  });

  it('orders ids as numbers of any length', () => {
    expect(compareXIds('999', '1000')).toBeLessThan(0);
    expect(compareXIds('1862000000000000300', '1862000000000000200')).toBeGreaterThan(0);
    expect(xConversationId(ME, ANA)).toBe(`${ANA}-${ME}`);
    expect(xConversationId(ANA, ME)).toBe(`${ANA}-${ME}`);
  });
});
